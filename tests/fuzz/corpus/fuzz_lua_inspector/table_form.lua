#!lua name=lib2
redis.register_function{function_name='g', callback=function() return redis.call('GET', KEYS[1]) end, flags={'no-writes'}, description='reads'}
