#!lua name=inventory_lib_v1
-- version: 1.3.0
-- SPDX-License-Identifier: GPL-3.0-or-later
-- Stock deduction, once per order. Every check runs before the first write: a Lua error
-- after a write is not rolled back.
-- 1.1.0: inventory_deduct_v1 unchanged; adds inventory_deduct_v2 (hash receipt recording the
-- quantity, so that a retry with another quantity is told apart) and inventory_receipt_v1.
-- 1.2.0: inventory_deduct_v1 and v2 check the caller's permission for every write they will
-- make (redis.acl_check_cmd) before the first one. A caller who may DECRBY but not SET used
-- to get the decrement and an error, with no receipt; now it gets NOPERM and nothing is
-- written. The same contract names: the only new behaviour is a refusal before any write.
-- 1.3.0: inventory_deduct_v1, v2 and inventory_receipt_v1 unchanged; adds the repair
-- functions of issue 32: inventory_release_v1 (gives back what an order's deduction took,
-- once per order, only while its receipt proves the deduction) and inventory_adjust_v1 (a
-- manual correction of a stock, once per adjustment id). Both check everything, their
-- writes' permissions included, before their first write.

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

-- Nil when the caller's ACL allows this write (command, key, arguments); otherwise the
-- refusal to return. A permission error is a Lua error too, and one raised after DECRBY would
-- leave the stock deducted without a receipt: each function checks all its writes first.
local function refuse_unless_allowed(command, ...)
    if redis.acl_check_cmd(command, ...) then
        return nil
    end
    return redis.error_reply('NOPERM this user may not run ' .. command .. ' on the keys of '
        .. 'this deduction; nothing was written')
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
    local refusal = refuse_unless_allowed('DECRBY', stock_key, args[1])
        or refuse_unless_allowed('SET', receipt_key, tostring(stock - quantity), 'EX', args[2])
    if refusal then
        return refusal
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

-- The receipt of an order, in either form: nil when there is none; otherwise the recorded
-- remaining and the recorded quantity (nil for a v1 string receipt, which has none; its text
-- is kept as `recorded`, since v1 and v2 return it as it is).
-- A receipt that is neither form, or holds non-canonical numbers, is an error reply: the
-- order's state cannot be known, so nothing is decided from it.
local function read_receipt(receipt_key)
    local receipt_type = redis.call('TYPE', receipt_key)['ok']
    if receipt_type == 'none' then
        return nil
    end
    if receipt_type == 'string' then
        local recorded = redis.call('GET', receipt_key)
        return {remaining = tonumber(recorded) or recorded, recorded = recorded}
    end
    if receipt_type ~= 'hash' then
        return nil, 'ERR invalid receipt'
    end
    local fields = redis.call('HMGET', receipt_key, 'remaining', 'quantity')
    local remaining = canonical(fields[1], MAX_STOCK)
    local quantity = canonical(fields[2], MAX_QUANTITY)
    if not remaining or not quantity or quantity < 1 then
        return nil, 'ERR invalid receipt'
    end
    return {remaining = remaining, quantity = quantity}
end

-- FCALL inventory_deduct_v2 2 <stock key> <receipt key> <quantity> <ttl seconds>
-- As v1, but the receipt is a hash {remaining, quantity, time} so that a retry can be checked:
-- {1, remaining} deducted; {2, recorded remaining} already applied with this quantity (or by
-- v1, whose string receipt has no quantity); {-3, recorded quantity} this order was applied
-- with another quantity (nothing changes); {0, stock} insufficient; {-2, 0} stock key missing.
local function deduct_v2(keys, args)
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

    local receipt, receipt_error = read_receipt(receipt_key)
    if receipt_error then
        return redis.error_reply(receipt_error)
    end
    if receipt then
        if receipt.quantity and receipt.quantity ~= quantity then
            return {-3, receipt.quantity}
        end
        return {2, receipt.remaining}
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
    local refusal = refuse_unless_allowed('DECRBY', stock_key, args[1])
        or refuse_unless_allowed('HSET', receipt_key, 'remaining', tostring(stock - quantity),
            'quantity', args[1], 'time', '0')
        or refuse_unless_allowed('EXPIRE', receipt_key, args[2])
    if refusal then
        return refusal
    end

    -- Server time, read before the first write: "seconds.microseconds".
    local now = redis.call('TIME')
    local time = now[1] .. '.' .. string.format('%06d', tonumber(now[2]))
    local remaining = redis.call('DECRBY', stock_key, quantity)
    redis.call('HSET', receipt_key, 'remaining', remaining, 'quantity', quantity, 'time', time)
    redis.call('EXPIRE', receipt_key, ttl)
    return {1, remaining}
end

-- FCALL_RO inventory_receipt_v1 1 <receipt key>
-- {1, remaining, ttl seconds (-1: none), quantity (-1: a v1 receipt)} or {0, 0, -2, -1}.
local function receipt_v1(keys, args)
    if #keys ~= 1 or #args ~= 0 then
        return redis.error_reply('ERR expected one key (receipt) and no arguments')
    end
    local receipt, receipt_error = read_receipt(keys[1])
    if receipt_error then
        return redis.error_reply(receipt_error)
    end
    if not receipt then
        return {0, 0, -2, -1}
    end
    -- A v1 receipt must hold what v1 writes: a canonical remaining.
    local remaining = receipt.remaining
    if receipt.recorded then
        remaining = canonical(receipt.recorded, MAX_STOCK)
    end
    if not remaining then
        return redis.error_reply('ERR invalid receipt')
    end
    return {1, remaining, redis.call('TTL', keys[1]), receipt.quantity or -1}
end

redis.register_function{
    function_name = 'inventory_deduct_v2',
    callback = deduct_v2,
    description = 'Deduct stock once per order, recording the quantity: KEYS stock, receipt; '
        .. 'ARGV quantity, ttl. Returns {1,remaining} | {2,recorded} | {-3,recorded quantity} '
        .. '| {0,stock} | {-2,0}',
}

redis.register_function{
    function_name = 'inventory_receipt_v1',
    callback = receipt_v1,
    flags = {'no-writes'},
    description = 'Read an order receipt (either form): KEYS receipt. Returns '
        .. '{1,remaining,ttl,quantity or -1} | {0,0,-2,-1}',
}

-- The repairs' permission check, as refuse_unless_allowed's: `subject` names the call in the
-- refusal ('this release', 'this adjustment'). A helper of its own, so that the deduction
-- functions' code (and what the console's diff fingerprints of it) stays as 1.2.0 shipped it.
local function refuse_repair_unless_allowed(subject, command, ...)
    if redis.acl_check_cmd(command, ...) then
        return nil
    end
    return redis.error_reply('NOPERM this user may not run ' .. command .. ' on the keys of '
        .. subject .. '; nothing was written')
end

-- The server's time, "seconds.microseconds", as the v2 receipt and the repair records hold it.
local function server_time()
    local now = redis.call('TIME')
    return now[1] .. '.' .. string.format('%06d', tonumber(now[2]))
end

-- The stock of a repair: nil and {-2, 0} when the key is missing, nil and an error reply
-- when it is not a canonical string within the bound, else the number.
local function read_stock(stock_key)
    local stock_type = redis.call('TYPE', stock_key)['ok']
    if stock_type == 'none' then
        return nil, {-2, 0}
    end
    if stock_type ~= 'string' then
        return nil, redis.error_reply('ERR invalid stock')
    end
    local stock = canonical(redis.call('GET', stock_key), MAX_STOCK)
    if not stock then
        return nil, redis.error_reply('ERR invalid stock')
    end
    return stock
end

-- The writes of a repair, once every check has passed: the permission of each write first
-- (nothing is written when one is refused), then INCRBY the stock by args[1] (a quantity or a
-- delta, checked canonical) and SET the record key = '<field>=<args[1]>;time=<server time>'
-- EX args[2]. Returns {1, stock after}, or the refusal.
local function apply_repair(subject, stock_key, record_key, field, args)
    local refusal = refuse_repair_unless_allowed(subject, 'INCRBY', stock_key, args[1])
        or refuse_repair_unless_allowed(subject, 'SET', record_key,
            field .. '=' .. args[1] .. ';time=0', 'EX', args[2])
    if refusal then
        return refusal
    end
    local record = field .. '=' .. args[1] .. ';time=' .. server_time()
    local after = redis.call('INCRBY', stock_key, tonumber(args[1]))
    redis.call('SET', record_key, record, 'EX', tonumber(args[2]))
    return {1, after}
end

-- A repair already made (its record key exists): {2, current stock}, the stock -1 when its
-- key is missing. nil when there is no record; an error reply when the record key holds
-- something no repair writes (`what` names it) or the stock is invalid.
local function already_repaired(record_key, stock_key, what)
    local record_type = redis.call('TYPE', record_key)['ok']
    if record_type == 'none' then
        return nil
    end
    if record_type ~= 'string' then
        return redis.error_reply('ERR invalid ' .. what)
    end
    local stock, missing = read_stock(stock_key)
    if stock then
        return {2, stock}
    end
    if missing[1] == -2 then
        return {2, -1}
    end
    return missing
end

-- FCALL inventory_release_v1 3 <stock key> <receipt key> <release key> <quantity> <ttl>
-- Gives back what one order's deduction took, once: {1, stock after} released; {2, stock}
-- already released; {-4, 0} no receipt, so no deduction to release; {-3, recorded quantity}
-- the receipt records another quantity; {-2, 0} stock key missing. The receipt is left as it
-- is: a retry of the deduction is still answered from it while it lives.
local function release_v1(keys, args)
    if #keys ~= 3 or #args ~= 2 then
        return redis.error_reply('ERR expected three keys (stock, receipt, release) and two '
            .. 'arguments (quantity, ttl)')
    end
    local stock_key, receipt_key, release_key = keys[1], keys[2], keys[3]
    local quantity = canonical(args[1], MAX_QUANTITY)
    if not quantity or quantity < 1 then
        return redis.error_reply('ERR invalid quantity')
    end
    local ttl = canonical(args[2], MAX_TTL)
    if not ttl or ttl < 1 then
        return redis.error_reply('ERR invalid ttl')
    end

    local done = already_repaired(release_key, stock_key, 'release')
    if done then
        return done
    end
    local receipt, receipt_error = read_receipt(receipt_key)
    if receipt_error then
        return redis.error_reply(receipt_error)
    end
    if not receipt then
        return {-4, 0}
    end
    if receipt.quantity and receipt.quantity ~= quantity then
        return {-3, receipt.quantity}
    end
    local stock, refused = read_stock(stock_key)
    if not stock then
        return refused
    end
    if stock + quantity > MAX_STOCK then
        return redis.error_reply('ERR invalid stock')
    end
    return apply_repair('this release', stock_key, release_key, 'quantity', args)
end

-- A canonical signed delta: an optional '-' before a canonical unsigned 1..max ("-0", "+1",
-- "01" and "0" are not). Returns the number, or nil.
local function canonical_delta(text, max)
    if type(text) ~= 'string' then
        return nil
    end
    local sign = 1
    if string.sub(text, 1, 1) == '-' then
        sign, text = -1, string.sub(text, 2)
    end
    local magnitude = canonical(text, max)
    if not magnitude or magnitude < 1 then
        return nil
    end
    return sign * magnitude
end

-- FCALL inventory_adjust_v1 2 <stock key> <adjustment key> <delta> <ttl seconds>
-- A manual correction, once per adjustment id: {1, stock after} applied; {2, stock} already
-- applied; {0, stock} refused, the result would leave 0..1,000,000,000 (nothing recorded);
-- {-2, 0} stock key missing.
local function adjust_v1(keys, args)
    if #keys ~= 2 or #args ~= 2 then
        return redis.error_reply('ERR expected two keys (stock, adjustment) and two arguments '
            .. '(delta, ttl)')
    end
    local stock_key, adjustment_key = keys[1], keys[2]
    local delta = canonical_delta(args[1], MAX_QUANTITY)
    if not delta then
        return redis.error_reply('ERR invalid delta')
    end
    local ttl = canonical(args[2], MAX_TTL)
    if not ttl or ttl < 1 then
        return redis.error_reply('ERR invalid ttl')
    end

    local done = already_repaired(adjustment_key, stock_key, 'adjustment')
    if done then
        return done
    end
    local stock, refused = read_stock(stock_key)
    if not stock then
        return refused
    end
    if stock + delta < 0 or stock + delta > MAX_STOCK then
        return {0, stock}
    end
    return apply_repair('this adjustment', stock_key, adjustment_key, 'delta', args)
end

redis.register_function{
    function_name = 'inventory_release_v1',
    callback = release_v1,
    description = 'Release an order deduction once: KEYS stock, receipt, release; ARGV '
        .. 'quantity, ttl. Returns {1,stock} | {2,stock} | {-4,0} | {-3,recorded quantity} '
        .. '| {-2,0}',
}

redis.register_function{
    function_name = 'inventory_adjust_v1',
    callback = adjust_v1,
    description = 'Adjust stock once per adjustment id: KEYS stock, adjustment; ARGV delta, '
        .. 'ttl. Returns {1,stock} | {2,stock} | {0,stock} | {-2,0}',
}
