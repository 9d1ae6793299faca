redis.register_function('f', function() end)
