#!lua name=u
redis.register_function{function_name='f', callback=function() end, flags={'sometimes'}}
