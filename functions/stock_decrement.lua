-- SPDX-License-Identifier: GPL-3.0-or-later
-- stock_decrement.lua: check and decrement one SKU's stock atomically.
-- EVALSHA <sha> 1 <stock key> <quantity>
-- {1, remaining} deducted; {0, stock} insufficient; {-1, 0} stock key missing.
-- Not idempotent: a retry after a lost reply may deduct twice.

local MAX_QUANTITY = 1000000
local MAX_STOCK = 1000000000

local function canonical(text, max)
    if type(text) ~= 'string' or #text < 1 or #text > 10 then
        return nil
    end
    if not string.match(text, '^[0-9]+$') then
        return nil
    end
    if #text > 1 and string.sub(text, 1, 1) == '0' then
        return nil
    end
    local value = tonumber(text)
    if value > max then
        return nil
    end
    return value
end

if #KEYS ~= 1 or #ARGV ~= 1 then
    return redis.error_reply('ERR expected one key and one quantity')
end
local quantity = canonical(ARGV[1], MAX_QUANTITY)
if not quantity or quantity < 1 then
    return redis.error_reply('ERR invalid quantity')
end

local stock_type = redis.call('TYPE', KEYS[1])['ok']
if stock_type == 'none' then
    return {-1, 0}
end
if stock_type ~= 'string' then
    return redis.error_reply('ERR invalid stock')
end
local stock = canonical(redis.call('GET', KEYS[1]), MAX_STOCK)
if not stock then
    return redis.error_reply('ERR invalid stock')
end
if stock < quantity then
    return {0, stock}
end
return {1, redis.call('DECRBY', KEYS[1], quantity)}
