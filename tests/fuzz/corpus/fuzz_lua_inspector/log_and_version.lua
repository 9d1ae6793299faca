#!lua name=v
-- version: 1.2.3
redis.log(redis.LOG_WARNING, 'loading ' .. redis.REDIS_VERSION)
local t = {}
for i=1,10 do t[i] = string.rep('x', i) end
redis.register_function('h', function() return #t end)
