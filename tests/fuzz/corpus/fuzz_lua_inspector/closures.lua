#!lua name=c
local helper = function(n) return n + 1 end
local K = 5
redis.register_function('a', function() return helper(K) end)
redis.register_function('b', function() return helper(1) end)
