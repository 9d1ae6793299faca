#!lua name=g
x = 1
redis.register_function('f', function() end)
