#!lua name=twins
redis.register_function('f', function() end)
redis.register_function('F', function() end)
