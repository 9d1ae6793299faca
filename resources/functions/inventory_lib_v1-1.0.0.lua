#!lua name=inventory_lib_v1
-- version: 1.0.0
-- Stock deduction, once per order. Every check runs before the first write: a Lua error
-- after a write is not rolled back.

local MAX_QUANTITY = 1000000
local MAX_TTL = 31536000
local MAX_STOCK = 1000000000

-- A canonical unsigned decimal: 1 to 10 digits, no sign, no leading zero unless "0".
-- Returns the number, or nil when the text is not canonical or above max.
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

-- FCALL inventory_deduct_v1 2 <stock key> <receipt key> <quantity> <ttl seconds>
-- {1, remaining} deducted; {2, recorded remaining} already applied for this order;
-- {0, stock} insufficient (nothing recorded); {-2, 0} stock key missing.
local function deduct_v1(keys, args)
    if #keys ~= 2 or #args ~= 2 then
        return redis.error_reply('ERR expected two keys (stock, receipt) and two arguments '
            .. '(quantity, ttl)')
    end
    local stock_key, receipt_key = keys[1], keys[2]
    local quantity = canonical(args[1], MAX_QUANTITY)
    if not quantity or quantity < 1 then
        return redis.error_reply('ERR invalid quantity')
    end
    local ttl = canonical(args[2], MAX_TTL)
    if not ttl or ttl < 1 then
        return redis.error_reply('ERR invalid ttl')
    end

    local recorded = redis.call('GET', receipt_key)
    if recorded then
        return {2, tonumber(recorded) or recorded}
    end

    local stock_type = redis.call('TYPE', stock_key)['ok']
    if stock_type == 'none' then
        return {-2, 0}
    end
    if stock_type ~= 'string' then
        return redis.error_reply('ERR invalid stock')
    end
    local stock = canonical(redis.call('GET', stock_key), MAX_STOCK)
    if not stock then
        return redis.error_reply('ERR invalid stock')
    end
    if stock < quantity then
        return {0, stock}
    end

    local remaining = redis.call('DECRBY', stock_key, quantity)
    redis.call('SET', receipt_key, remaining, 'EX', ttl)
    return {1, remaining}
end

redis.register_function{
    function_name = 'inventory_deduct_v1',
    callback = deduct_v1,
    description = 'Deduct stock once per order: KEYS stock, receipt; ARGV quantity, ttl. '
        .. 'Returns {1,remaining} | {2,recorded} | {0,stock} | {-2,0}',
}
