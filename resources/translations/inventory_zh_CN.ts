<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <source>Export as CSV</source>
        <translation>导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Exporting: %1 of %2 rows</source>
        <translation>正在导出：%1 / %2 行</translation>
    </message>
    <message>
        <source>Exported to %1 (cells that would run as spreadsheet formulas start with &apos;)</source>
        <translation>已导出到 %1（会被当作电子表格公式执行的单元格以 &apos; 开头）</translation>
    </message>
    <message>
        <source>deductions</source>
        <translation>扣减次数</translation>
    </message>
    <message>
        <source>Runs on %1</source>
        <translation>运行于 %1</translation>
    </message>
    <message>
        <source>&amp;Language (applies after a restart)</source>
        <translation>语言（重启后生效）(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The new language applies the next time the console starts. Nothing else changes now.</source>
        <translation>新语言将在控制台下次启动时生效。现在不会有其他任何变化。</translation>
    </message>
    <message>
        <source>Writes stay locked</source>
        <translation>写入保持锁定</translation>
    </message>
    <message>
        <source>Check the sentinels&apos; hosts and ports (26379 by default) on the Sentinel tab, and any firewall or SSH bastion in between.</source>
        <translation>请在“哨兵”页检查哨兵的主机和端口（默认 26379），以及中间的防火墙或 SSH 堡垒机。</translation>
    </message>
    <message>
        <source>Give the sentinels&apos; own user and password on the Sentinel tab; the data node&apos;s password goes on the Connection tab.</source>
        <translation>请在“哨兵”页填写哨兵自己的用户和密码；数据节点的密码填在“连接”页。</translation>
    </message>
    <message>
        <source>Check the master name: SENTINEL MASTERS on a sentinel lists the names it monitors.</source>
        <translation>请检查主节点名称：在哨兵上执行 SENTINEL MASTERS 可列出它监控的名称。</translation>
    </message>
    <message>
        <source>These ports answer, but not as sentinels: check the ports on the Sentinel tab.</source>
        <translation>这些端口有应答，但不是哨兵：请检查“哨兵”页上的端口。</translation>
    </message>
    <message>
        <source>A failover may be under way: try again in a few seconds.</source>
        <translation>可能正在进行故障转移：请几秒后重试。</translation>
    </message>
    <message>
        <source>The sentinels named a primary this machine could not ask: check the data node&apos;s password, TLS and whether its address is reachable from here.</source>
        <translation>哨兵给出的主节点本机无法访问：请检查数据节点的密码、TLS，以及从这里能否访问它的地址。</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>Reconnecting</source>
        <translation>正在重连</translation>
    </message>
    <message>
        <source>Connection failed</source>
        <translation>连接失败</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>time (UTC)  %1</source>
        <translation>时间 (UTC)  %1</translation>
    </message>
    <message>
        <source>action      %1</source>
        <translation>操作        %1</translation>
    </message>
    <message>
        <source>result      %1%2</source>
        <translation>结果        %1%2</translation>
    </message>
    <message>
        <source>  [OUTCOME UNKNOWN]</source>
        <translation>  [结果未知]</translation>
    </message>
    <message>
        <source>attempt     %1: written before sending, no outcome followed. Check the key, receipt or library before retrying.</source>
        <translation>尝试        %1：发送前已写入，之后没有结果。重试前请先检查键、回执或函数库。</translation>
    </message>
    <message>
        <source>sku         %1   order %2</source>
        <translation>SKU         %1   订单 %2</translation>
    </message>
    <message>
        <source>-</source>
        <translation>-</translation>
    </message>
    <message>
        <source>profile     %1   server %2   run_id %3</source>
        <translation>配置        %1   服务器 %2   run_id %3</translation>
    </message>
    <message>
        <source>os user     %1   duration %2</source>
        <translation>系统用户    %1   耗时 %2</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>command     %1</source>
        <translation>命令        %1</translation>
    </message>
    <message>
        <source>detail      %1</source>
        <translation>详情        %1</translation>
    </message>
    <message>
        <source>attempt     %1 (written before sending, paired with this outcome)</source>
        <translation>尝试        %1（发送前已写入，与此结果配对）</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>回滚</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>(no description)</source>
        <translation>（无描述）</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>flags</source>
        <translation>标志</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>name case</source>
        <translation>名称大小写</translation>
    </message>
    <message>
        <source>code not compared</source>
        <translation>未比较代码</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未变</translation>
    </message>
    <message>
        <source>before a load</source>
        <translation>加载之前</translation>
    </message>
    <message>
        <source>before a delete</source>
        <translation>删除之前</translation>
    </message>
    <message>
        <source>before a rollback</source>
        <translation>回滚之前</translation>
    </message>
    <message>
        <source>before a dump restore</source>
        <translation>恢复转储之前</translation>
    </message>
    <message>
        <source>No change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <source>Compatible change</source>
        <translation>兼容变更</translation>
    </message>
    <message>
        <source>Breaking change</source>
        <translation>破坏性变更</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>no description</source>
        <translation>无描述</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>In line</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>Release candidate</source>
        <translation>待释放</translation>
    </message>
    <message>
        <source>Missing receipt</source>
        <translation>缺少回执</translation>
    </message>
    <message>
        <source>Quantity differs</source>
        <translation>数量不符</translation>
    </message>
    <message>
        <source>Released, yet committed</source>
        <translation>已释放，但订单已提交</translation>
    </message>
    <message>
        <source>Released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>cancelled after %1 ledger rows</source>
        <translation>读取 %1 行订单账后已取消</translation>
    </message>
    <message>
        <source>%1 ledger rows out of scope</source>
        <translation>%1 行订单账不在范围内</translation>
    </message>
    <message>
        <source>%1 failed or cancelled orders never deducted</source>
        <translation>%1 个失败或已取消的订单从未扣减</translation>
    </message>
    <message>
        <source>%1 pending orders (never release candidates)</source>
        <translation>%1 个待定订单（从不作为待释放）</translation>
    </message>
    <message>
        <source>%1 receipts younger than the grace period</source>
        <translation>%1 条回执尚在宽限期内</translation>
    </message>
    <message>
        <source>%1 receipts the ledger lacks whose age is unknown (v1)</source>
        <translation>%1 条订单账中没有且时间未知的回执（v1）</translation>
    </message>
    <message>
        <source>%1 receipts outside the window</source>
        <translation>%1 条回执不在时间窗口内</translation>
    </message>
    <message>
        <source>Not judged: %1.</source>
        <translation>未判断：%1。</translation>
    </message>
    <message numerus="yes">
        <source>not proven: %n receipt(s) record no quantity</source>
        <translation>
            <numerusform>未证实：%n 条回执未记录数量</numerusform>
        </translation>
    </message>
    <message>
        <source>balanced</source>
        <translation>平衡</translation>
    </message>
    <message>
        <source>receipts hold %1 units, the ledger committed %2 (%3%4)</source>
        <translation>回执记录 %1 件，订单账已提交 %2 件（%3%4）</translation>
    </message>
    <message>
        <source>unknown (%1)</source>
        <translation>未知（%1）</translation>
    </message>
    <message>
        <source>Release candidates</source>
        <translation>待释放</translation>
    </message>
    <message>
        <source>Missing receipts</source>
        <translation>缺少回执</translation>
    </message>
    <message>
        <source>Quantities that differ</source>
        <translation>数量不符</translation>
    </message>
</context>
<context>
    <name>browse::AnomalyModel</name>
    <message>
        <source>Anomaly</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Why it matters</source>
        <translation>为何重要</translation>
    </message>
</context>
<context>
    <name>browse::Cells</name>
    <message>
        <source>(not seen yet)</source>
        <translation>（尚未读到）</translation>
    </message>
    <message>
        <source>(missing)</source>
        <translation>（不存在）</translation>
    </message>
    <message>
        <source>(a %1, not a string)</source>
        <translation>（%1 类型，不是字符串）</translation>
    </message>
    <message>
        <source>(no remaining field)</source>
        <translation>（没有 remaining 字段）</translation>
    </message>
    <message>
        <source>(a %1)</source>
        <translation>（%1 类型）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>quantity %1</source>
        <translation>数量 %1</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>于 %1</translation>
    </message>
    <message>
        <source>hash: %1</source>
        <translation>哈希：%1</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between a hash&apos;s fields</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>stock not integer</source>
        <translation>库存不是整数</translation>
    </message>
    <message>
        <source>negative stock</source>
        <translation>库存为负</translation>
    </message>
    <message>
        <source>stock has TTL</source>
        <translation>库存有 TTL</translation>
    </message>
    <message>
        <source>receipt without TTL</source>
        <translation>回执没有 TTL</translation>
    </message>
    <message>
        <source>stock key missing</source>
        <translation>库存键不存在</translation>
    </message>
    <message>
        <source>remaining not integer</source>
        <translation>剩余量不是整数</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between anomalies</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>%1 is above %2: the deduction function refuses it</source>
        <translation>%1 超过 %2：扣减函数会拒绝它</translation>
    </message>
    <message>
        <source>the stock key is a %1, not a string: every deduction fails</source>
        <translation>库存键是 %1 类型，不是字符串：每次扣减都会失败</translation>
    </message>
    <message>
        <source>%1 is not a canonical integer: every deduction fails with ERR invalid stock</source>
        <translation>%1 不是规范整数：每次扣减都会以 ERR invalid stock 失败</translation>
    </message>
    <message>
        <source>%1: stock can never go negative through the function, so someone wrote it by hand</source>
        <translation>%1：通过函数库存永远不会变为负数，因此是有人手工写入的</translation>
    </message>
    <message>
        <source>the stock key expires in %1: the SKU would vanish and every deduction answer &apos;no stock key&apos;</source>
        <translation>库存键将在 %1 后过期：该 SKU 会消失，每次扣减都会应答“没有库存键”</translation>
    </message>
    <message>
        <source>never expires: the order stays protected forever, and memory grows with every order</source>
        <translation>永不过期：该订单永远受保护，内存随每个订单增长</translation>
    </message>
    <message>
        <source>its stock key %1 does not exist</source>
        <translation>它的库存键 %1 不存在</translation>
    </message>
    <message>
        <source>recorded remaining is %1, not an integer</source>
        <translation>记录的剩余量是 %1，不是整数</translation>
    </message>
</context>
<context>
    <name>browse::CsvExporter</name>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the view changed during the export</source>
        <translation>导出期间视图已变化</translation>
    </message>
</context>
<context>
    <name>browse::FlatKeyModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Value (preview)</source>
        <translation>值（预览）</translation>
    </message>
</context>
<context>
    <name>browse::FlatKeyScan</name>
    <message>
        <source>stopped at %1 keys: narrow the pattern to see the rest</source>
        <translation>已在 %1 个键处停止：请缩小匹配模式以查看其余部分</translation>
    </message>
</context>
<context>
    <name>browse::Glob</name>
    <message>
        <source>the pattern ends with a lone &apos;\&apos; (write &apos;\\&apos; for a backslash)</source>
        <translation>模式以单独的 &apos;\&apos; 结尾（反斜杠请写作 &apos;\&apos;）</translation>
    </message>
    <message>
        <source>the &apos;[&apos; at position %1 is never closed with &apos;]&apos; (write &apos;\[&apos; for a bracket)</source>
        <translation>位置 %1 的 &apos;[&apos; 没有以 &apos;]&apos; 闭合（方括号本身请写作 &apos;\[&apos;）</translation>
    </message>
</context>
<context>
    <name>browse::InventoryLoader</name>
    <message>
        <source>PTTL answered %1, which is not a TTL</source>
        <translation>PTTL 应答为 %1，这不是 TTL</translation>
    </message>
    <message>
        <source>%1 answered %2, not the value of a key</source>
        <translation>%1 应答为%2，而不是键的值</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>another type</source>
        <translation>其他类型</translation>
    </message>
</context>
<context>
    <name>browse::InventoryScan</name>
    <message>
        <source>could not read 1 key (first: %1)</source>
        <translation>有 1 个键无法读取（第一个：%1）</translation>
    </message>
    <message>
        <source>could not read %1 keys (first: %2)</source>
        <translation>有 %1 个键无法读取（第一个：%2）</translation>
    </message>
    <message>
        <source>the keyspace is too large to hold in one view: filter by SKU</source>
        <translation>键空间太大，无法在一个视图中容纳：请按 SKU 过滤</translation>
    </message>
</context>
<context>
    <name>browse::KeyAction</name>
    <message>
        <source>no key selected</source>
        <translation>未选择键</translation>
    </message>
    <message>
        <source>give a TTL from 1 second to 365 days</source>
        <translation>请给出 1 秒到 365 天之间的 TTL</translation>
    </message>
    <message>
        <source>new stock: %1</source>
        <translation>新库存：%1</translation>
    </message>
    <message>
        <source>The key will expire in %1. For a receipt, a retry of its order after that deducts again; a stock key that expires makes every deduction of the SKU answer &apos;no stock key&apos;.</source>
        <translation>该键将在 %1 后过期。对回执而言，此后重试它的订单会再次扣减；库存键过期后，该 SKU 的每次扣减都会答复“没有库存键”。</translation>
    </message>
    <message>
        <source>The key will never expire. Right for a stock key; a receipt without a TTL protects its order forever and is never freed.</source>
        <translation>该键将永不过期。这适合库存键；没有 TTL 的回执会永远保护它的订单，且永远不会被释放。</translation>
    </message>
    <message>
        <source>The key is deleted now. For a receipt, the next retry of its order deducts stock again: do this only for a deliberate re-deduction.</source>
        <translation>该键会立即删除。对回执而言，它的订单下次重试会再次扣减库存：只在有意重新扣减时才这样做。</translation>
    </message>
    <message>
        <source>The stock becomes %1: every deduction of this SKU from now on checks against it. The key keeps its name, loses any TTL, and is not created if it was deleted meanwhile. Receipts are not touched: orders already deducted stay deducted.</source>
        <translation>库存将变为 %1：此后该 SKU 的每次扣减都以它为准。该键保留名称、去掉 TTL；如果它在此期间已被删除，则不会重新创建。回执不受影响：已扣减的订单仍然算已扣减。</translation>
    </message>
    <message>
        <source>the value you enter</source>
        <translation>你输入的值</translation>
    </message>
    <message>
        <source>TTL set: expires in %1</source>
        <translation>已设置 TTL：%1 后过期</translation>
    </message>
    <message>
        <source>the key no longer exists: nothing changed</source>
        <translation>该键已不存在：没有任何改变</translation>
    </message>
    <message>
        <source>TTL removed: the key no longer expires</source>
        <translation>已移除 TTL：该键不再过期</translation>
    </message>
    <message>
        <source>nothing changed: the key has no TTL or no longer exists</source>
        <translation>没有任何改变：该键没有 TTL 或已不存在</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>nothing deleted: the key no longer exists</source>
        <translation>未删除任何内容：该键已不存在</translation>
    </message>
    <message>
        <source>nothing changed: the stock key no longer exists</source>
        <translation>没有任何改变：库存键已不存在</translation>
    </message>
    <message>
        <source>stock set to %1</source>
        <translation>库存已设为 %1</translation>
    </message>
    <message>
        <source>not sent: %1</source>
        <translation>未发送：%1</translation>
    </message>
    <message>
        <source>outcome unknown: %1. Check the key before trying again.</source>
        <translation>结果未知：%1。重试之前请先检查该键。</translation>
    </message>
    <message>
        <source>refused by the server: %1</source>
        <translation>被服务器拒绝：%1</translation>
    </message>
</context>
<context>
    <name>browse::KeyLocator</name>
    <message>
        <source>no node</source>
        <translation>无节点</translation>
    </message>
</context>
<context>
    <name>browse::KeyspaceScanner</name>
    <message>
        <source>no node to scan</source>
        <translation>没有可扫描的节点</translation>
    </message>
    <message>
        <source>stopped early</source>
        <translation>提前停止</translation>
    </message>
    <message>
        <source>SCAN failed: %1</source>
        <translation>SCAN 失败：%1</translation>
    </message>
    <message>
        <source>SCAN answered %1, not [cursor, keys] (an anomaly)</source>
        <translation>SCAN 应答为 %1，而不是 [cursor, keys]（异常）</translation>
    </message>
    <message>
        <source>node %1: %2</source>
        <translation>节点 %1：%2</translation>
    </message>
    <message>
        <source> (the keys of the other nodes are shown)</source>
        <translation>（显示的是其他节点的键）</translation>
    </message>
</context>
<context>
    <name>browse::KeyspaceStore</name>
    <message>
        <source>stock not a canonical integer</source>
        <translation>库存不是规范整数</translation>
    </message>
    <message>
        <source>stock negative</source>
        <translation>库存为负</translation>
    </message>
    <message>
        <source>stock key has a TTL</source>
        <translation>库存键有 TTL</translation>
    </message>
    <message>
        <source>receipt without TTL</source>
        <translation>回执没有 TTL</translation>
    </message>
    <message>
        <source>receipt, stock key missing</source>
        <translation>有回执，库存键不存在</translation>
    </message>
    <message>
        <source>receipt remaining not an integer</source>
        <translation>回执剩余量不是整数</translation>
    </message>
</context>
<context>
    <name>browse::LocatedTableModel</name>
    <message>
        <source>Slot %1 is served by the primary %2</source>
        <translation>槽 %1 由主节点 %2 负责</translation>
    </message>
    <message>
        <source>The cluster primary (host:port) that holds the key</source>
        <translation>持有该键的集群主节点 (host:port)</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>The key&apos;s cluster hash slot (0-16383)</source>
        <translation>该键的集群哈希槽 (0-16383)</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>槽</translation>
    </message>
</context>
<context>
    <name>browse::OrderAuditNote</name>
    <message>
        <source>This console&apos;s audit log has no deduction of this order (another client may have run it).</source>
        <translation>本控制台的审计日志中没有这个订单的扣减（其他客户端可能执行过它）。</translation>
    </message>
    <message>
        <source>This console&apos;s audit log says it deducted this order at %1 on the server with run_id %2, which still answers: the receipt has expired or was evicted since. The order did happen: a retry deducts it again.</source>
        <translation>本控制台的审计日志记载它在 %1 于 run_id 为 %2 的服务器上扣减了这个订单，该服务器仍在应答：回执此后已过期或被驱逐。这个订单确实发生过：重试会再扣减一次。</translation>
    </message>
    <message>
        <source>This console&apos;s audit log says it deducted this order at %1 on a server with run_id %2, and no server answers with that run_id now: it restarted or failed over, and the receipt was lost with it. The order did happen: a retry deducts it again.</source>
        <translation>本控制台的审计日志记载它在 %1 于 run_id 为 %2 的服务器上扣减了这个订单，而现在没有服务器以该 run_id 应答：它已重启或发生故障切换，回执随之丢失。这个订单确实发生过：重试会再扣减一次。</translation>
    </message>
    <message>
        <source>This console&apos;s audit log says it deducted this order at %1. The order did happen: a retry deducts it again.</source>
        <translation>本控制台的审计日志记载它在 %1 扣减了这个订单。这个订单确实发生过：重试会再扣减一次。</translation>
    </message>
    <message>
        <source>This console&apos;s last attempt at this order, at %1, was never sent: that attempt did not happen (another client may still have run it).</source>
        <translation>本控制台在 %1 对这个订单的最后一次尝试从未发送：那次尝试没有发生（其他客户端仍可能执行过它）。</translation>
    </message>
    <message>
        <source>The outcome of this console&apos;s last attempt at this order, at %1, is unknown: it may have run.</source>
        <translation>本控制台在 %1 对这个订单的最后一次尝试结果未知：它可能已执行。</translation>
    </message>
    <message>
        <source>This console&apos;s last record of this order, at %1: %2.</source>
        <translation>本控制台对这个订单的最后一条记录（%1）：%2。</translation>
    </message>
</context>
<context>
    <name>browse::OrderSentence</name>
    <message>
        <source>until %1 (in %2)</source>
        <translation>在 %1 之前（还有 %2）</translation>
    </message>
    <message>
        <source>Safe to retry: a retry fails (it deducts nothing) until someone repairs or deletes the key; it never expires by itself. Check the stock and the audit log first.</source>
        <translation>可以安全重试吗：在有人修复或删除该键之前，重试会失败（不会扣减）；它不会自行过期。请先检查库存和审计日志。</translation>
    </message>
    <message>
        <source>Safe to retry: no. The key has just expired: a retry now deducts again.</source>
        <translation>可以安全重试吗：不可以。该键刚刚过期：现在重试会再扣减一次。</translation>
    </message>
    <message>
        <source>Safe to retry: a retry fails (it deducts nothing) %1. After that a retry deducts again, unless someone repairs or deletes the key first.</source>
        <translation>可以安全重试吗：%1，重试会失败（不会扣减）。此后重试会再扣减一次，除非有人先修复或删除该键。</translation>
    </message>
    <message>
        <source>Deducted (this receipt does not record how many units).</source>
        <translation>已扣减（这条回执不记录扣减了多少件）。</translation>
    </message>
    <message>
        <source>Deducted at %1 (this receipt does not record how many units).</source>
        <translation>于 %1 扣减（这条回执不记录扣减了多少件）。</translation>
    </message>
    <message>
        <source>Deducted 1 unit.</source>
        <translation>扣减了 1 件。</translation>
    </message>
    <message>
        <source>Deducted 1 unit at %1.</source>
        <translation>于 %1 扣减了 1 件。</translation>
    </message>
    <message>
        <source>Deducted %1 units.</source>
        <translation>扣减了 %1 件。</translation>
    </message>
    <message>
        <source>Deducted %1 units at %2.</source>
        <translation>于 %2 扣减了 %1 件。</translation>
    </message>
    <message>
        <source>Stock left right after this order: %1.</source>
        <translation>该订单扣减后立即剩余的库存：%1。</translation>
    </message>
    <message>
        <source>The stock left after it was recorded as %1, which is not a number: an anomaly, written by hand or by other code.</source>
        <translation>扣减后剩余的库存被记录为 %1，这不是数字：这是异常，由人手或其他代码写入。</translation>
    </message>
    <message>
        <source>no maxmemory is set, so nothing is evicted</source>
        <translation>没有设置 maxmemory，因此不会驱逐任何键</translation>
    </message>
    <message>
        <source>%1 never evicts</source>
        <translation>%1 从不驱逐</translation>
    </message>
    <message>
        <source>the server has evicted %1 keys since it started (%2%3): receipts are among what it evicts, and this one may be next</source>
        <translation>服务器自启动以来已驱逐 %1 个键（%2%3）：回执也在它驱逐的范围内，这一条可能就是下一个</translation>
    </message>
    <message>
        <source>it is on disk (AOF is on)</source>
        <translation>它已写入磁盘（AOF 已开启）</translation>
    </message>
    <message>
        <source>it is in the snapshot of %1</source>
        <translation>它在 %1 的快照中</translation>
    </message>
    <message>
        <source>the server&apos;s persistence could not be read</source>
        <translation>无法读取服务器的持久化设置</translation>
    </message>
    <message>
        <source>last snapshot %1</source>
        <translation>上次快照 %1</translation>
    </message>
    <message>
        <source>no snapshot since it started</source>
        <translation>自启动以来没有快照</translation>
    </message>
    <message>
        <source>AOF is off: a restart or failover before the next snapshot loses it (%1)</source>
        <translation>AOF 已关闭：在下次快照之前发生重启或故障切换会丢失它（%1）</translation>
    </message>
    <message>
        <source>Safe to retry: no. The receipt has just expired: a retry now deducts again.</source>
        <translation>可以安全重试吗：不可以。回执刚刚过期：现在重试会再扣减一次。</translation>
    </message>
    <message>
        <source>the receipt has expired</source>
        <translation>回执已过期</translation>
    </message>
    <message>
        <source>at any time (the receipt never expires: an anomaly, it was written without an expiry)</source>
        <translation>在任何时候（回执永不过期：这是异常，它写入时没有设置过期时间）</translation>
    </message>
    <message>
        <source>but only %1, as the receipt expires soon</source>
        <translation>但只能%1，因为回执即将过期</translation>
    </message>
    <message>
        <source> After that a retry deducts again.</source>
        <translation>此后重试会再扣减一次。</translation>
    </message>
    <message>
        <source>Safe to retry: not proven yet. The receipt would protect a retry %1, if nothing removes it sooner; reading the server&apos;s eviction policy and persistence…</source>
        <translation>可以安全重试吗：尚未证实。如果没有什么提前删除回执，它会%1保护重试；正在读取服务器的驱逐策略和持久化设置…</translation>
    </message>
    <message>
        <source>the server&apos;s eviction policy and persistence are not read yet</source>
        <translation>尚未读取服务器的驱逐策略和持久化设置</translation>
    </message>
    <message>
        <source>Safe to retry: not proven. The receipt would protect a retry %1 only if nothing removes it sooner, and the console could not read what could (%2). Ask someone who may run INFO for the server&apos;s maxmemory-policy and persistence.</source>
        <translation>可以安全重试吗：未证实。只有在没有什么提前删除回执时，它才会%1保护重试，而控制台无法读取可能删除它的因素（%2）。请向有权执行 INFO 的人询问服务器的 maxmemory-policy 和持久化设置。</translation>
    </message>
    <message>
        <source>could not read the server: %1</source>
        <translation>无法读取服务器：%1</translation>
    </message>
    <message>
        <source>Safe to retry: not proven. The receipt is there now and would protect a retry %1, but %2. Look the order up again right before a retry.</source>
        <translation>可以安全重试吗：未证实。回执现在存在，会%1保护重试，但是%2。请在重试前一刻再查一次该订单。</translation>
    </message>
    <message>
        <source>; </source>
        <comment>between reasons</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>Safe to retry: probably, %1, unless the receipt is removed sooner: %2.%3</source>
        <translation>可以安全重试吗：很可能可以，%1，除非回执被提前删除：%2。%3</translation>
    </message>
    <message>
        <source>Safe to retry: yes, %1: a retry before then changes nothing.%2 Nothing removes the receipt sooner: %3.</source>
        <translation>可以安全重试吗：可以，%1：在此之前重试不会改变任何东西。%2没有什么会提前删除回执：%3。</translation>
    </message>
    <message>
        <source>, and </source>
        <comment>between reasons</comment>
        <translation>，并且</translation>
    </message>
    <message>
        <source>Stock now: %1.</source>
        <translation>当前库存：%1。</translation>
    </message>
    <message>
        <source>Stock now: %1, which is not valid: a new deduction of this SKU fails with an error.</source>
        <translation>当前库存：%1，这不是有效值：对这个 SKU 的新扣减会以错误失败。</translation>
    </message>
    <message>
        <source>The stock key %1 does not exist now: once the receipt is gone a retry deducts nothing and answers &apos;no stock key&apos;.</source>
        <translation>库存键 %1 现在不存在：一旦回执消失，重试不会扣减，并应答“没有库存键”。</translation>
    </message>
    <message>
        <source>Not proven: the search for order %1 is incomplete, so a receipt it did not read may exist. Do not retry on this answer: search again once the problem above is solved.</source>
        <translation>未证实：对订单 %1 的搜索不完整，因此可能存在它没有读到的回执。不要根据这个答复重试：请在解决上述问题后再搜索一次。</translation>
    </message>
    <message>
        <source>No receipt for order %1 in any SKU. That does not prove it never ran: a receipt also disappears when it expires, is evicted, or is lost in a restart or failover.</source>
        <translation>任何 SKU 中都没有订单 %1 的回执。这不能证明它从未执行：回执在过期、被驱逐，或在重启或故障切换中丢失时也会消失。</translation>
    </message>
    <message>
        <source>Could not read when the server started or what it evicted (%1).</source>
        <translation>无法读取服务器何时启动或驱逐了什么（%1）。</translation>
    </message>
    <message>
        <source>%1 started %2 (up %3): receipts written before then survived only if persistence kept them (%4).</source>
        <translation>%1 于 %2 启动（已运行 %3）：在此之前写入的回执只有在持久化保留了它们时才还在（%4）。</translation>
    </message>
    <message>
        <source>AOF is on</source>
        <translation>AOF 已开启</translation>
    </message>
    <message>
        <source>AOF is off: only those in its last snapshot</source>
        <translation>AOF 已关闭：只有上次快照中的那些</translation>
    </message>
    <message>
        <source>It has evicted %1 keys since (maxmemory-policy %2).</source>
        <translation>此后它已驱逐 %1 个键（maxmemory-policy %2）。</translation>
    </message>
    <message>
        <source>A retry now deducts; if the order ran before, that is a second deduction: check the audit log or the order ledger first.</source>
        <translation>现在重试会扣减；如果该订单之前执行过，这就是第二次扣减：请先检查审计日志或订单账。</translation>
    </message>
    <message>
        <source>%1 %2 today</source>
        <translation>今天 %1 %2</translation>
    </message>
    <message>
        <source>%1 %2 tomorrow</source>
        <translation>明天 %1 %2</translation>
    </message>
    <message>
        <source>%1 evicts any key when memory is full%2</source>
        <translation>%1 会在内存满时驱逐任何键%2</translation>
    </message>
    <message>
        <source>%1 evicts keys with a TTL, receipts included, when memory is full%2</source>
        <translation>%1 会在内存满时驱逐带 TTL 的键，包括回执%2</translation>
    </message>
</context>
<context>
    <name>browse::ReceiptTableModel</name>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>Recorded remaining</source>
        <translation>记录的剩余量</translation>
    </message>
    <message>
        <source>The stock left right after this order was deducted, as the receipt recorded it.</source>
        <translation>该订单扣减后立即剩余的库存，即回执所记录的值。</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Time until the receipt expires; after that a retry of the order deducts again.</source>
        <translation>距回执过期的时间；过期后重试该订单会再次扣减。</translation>
    </message>
    <message>
        <source>Expires at</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <source>Receipt type</source>
        <translation>回执类型</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>%1 (soon)</source>
        <translation>%1（即将过期）</translation>
    </message>
    <message>
        <source>never</source>
        <translation>永不</translation>
    </message>
    <message>
        <source>Expires soon: a retry of this order is safe only until %1; after that it deducts again.</source>
        <translation>即将过期：只有在 %1 之前重试该订单才是安全的；之后会再次扣减。</translation>
    </message>
</context>
<context>
    <name>browse::ServerEvidence</name>
    <message>
        <source>used %1 of %2 (%3 %)</source>
        <translation>已用 %1 / %2（%3 %）</translation>
    </message>
    <message>
        <source>the server on port %1 (run_id %2)</source>
        <translation>端口 %1 上的服务器（run_id %2）</translation>
    </message>
    <message>
        <source>the server (run_id %1)</source>
        <translation>服务器（run_id %1）</translation>
    </message>
</context>
<context>
    <name>browse::SkuTableModel</name>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>Stock TTL</source>
        <translation>库存 TTL</translation>
    </message>
    <message>
        <source>Time left on the stock key. Stock should never expire: &apos;none&apos; is right.</source>
        <translation>库存键的剩余时间。库存永远不应过期：“无”才是正确的。</translation>
    </message>
    <message>
        <source>Receipts</source>
        <translation>回执</translation>
    </message>
    <message>
        <source>Idempotency receipts (one per deducted order) still held for this SKU.</source>
        <translation>该 SKU 仍保留的幂等回执（每个已扣减订单一条）。</translation>
    </message>
    <message>
        <source>Soonest receipt expiry</source>
        <translation>最早回执过期</translation>
    </message>
    <message>
        <source>Time until this SKU&apos;s first receipt expires; after that, a retry of that order would deduct again.</source>
        <translation>距该 SKU 第一条回执过期的时间；之后重试那个订单会再次扣减。</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>%1: expires soon, and a retry of its order after that deducts again</source>
        <translation>%1：即将过期，之后重试其订单会再次扣减</translation>
    </message>
</context>
<context>
    <name>browse::Values</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
</context>
<context>
    <name>core::CsvReader</name>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>a quoted field is never closed</source>
        <translation>一个带引号的字段没有闭合</translation>
    </message>
    <message>
        <source>a record longer than %1 bytes</source>
        <translation>一条记录超过 %1 字节</translation>
    </message>
    <message>
        <source>text after a closing quote (field %1)</source>
        <translation>闭合引号后还有文字（第 %1 个字段）</translation>
    </message>
    <message>
        <source>a quote inside an unquoted field (field %1)</source>
        <translation>未加引号的字段中出现引号（第 %1 个字段）</translation>
    </message>
</context>
<context>
    <name>core::DataPaths</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot make %1 private: %2</source>
        <translation>无法将 %1 设为私有：%2</translation>
    </message>
    <message>
        <source>cannot make %1 private: not a regular file</source>
        <translation>无法将 %1 设为私有：它不是普通文件</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>cannot create %1: not a directory</source>
        <translation>无法创建 %1：它不是目录</translation>
    </message>
    <message>
        <source>cannot make %1 private: it is not open</source>
        <translation>无法将 %1 设为私有：它没有打开</translation>
    </message>
</context>
<context>
    <name>core::RegularFile</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>a directory</source>
        <translation>是一个目录</translation>
    </message>
    <message>
        <source>a FIFO</source>
        <translation>是一个 FIFO</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>是一个套接字</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>是一个设备</translation>
    </message>
    <message>
        <source>not a plain file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>cannot read %1: it is %2 bytes, above the limit of %3 bytes</source>
        <translation>无法读取 %1：文件有 %2 字节，超过 %3 字节的上限</translation>
    </message>
    <message>
        <source>cannot read %1: it is a symbolic link, and this file is only read as a regular file</source>
        <translation>无法读取 %1：它是符号链接，而此文件只按普通文件读取</translation>
    </message>
    <message>
        <source>cannot read %1: not a regular file (%2)</source>
        <translation>无法读取 %1：不是普通文件（%2）</translation>
    </message>
</context>
<context>
    <name>demo::DemoLedger</name>
    <message>
        <source>%1 exists already: the demo ledger is never written over</source>
        <translation>%1 已存在：演示订单账从不覆盖已有文件</translation>
    </message>
    <message>
        <source>the demo database has %1 receipts; seed it first</source>
        <translation>演示数据库只有 %1 条回执；请先写入演示数据</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>an error reply</source>
        <translation>一个错误应答</translation>
    </message>
    <message>
        <source>cannot write the demo ledger %1: %2</source>
        <translation>无法写入演示订单账 %1：%2</translation>
    </message>
</context>
<context>
    <name>demo::DemoPlan</name>
    <message>
        <source>stock not a canonical integer</source>
        <translation>库存不是规范整数</translation>
    </message>
    <message>
        <source>negative stock</source>
        <translation>库存为负</translation>
    </message>
    <message>
        <source>stock key with a TTL</source>
        <translation>库存键带 TTL</translation>
    </message>
    <message>
        <source>receipt about to expire</source>
        <translation>回执即将过期</translation>
    </message>
    <message>
        <source>receipt without stock key</source>
        <translation>回执没有对应的库存键</translation>
    </message>
    <message>
        <source>receipt without TTL</source>
        <translation>回执没有 TTL</translation>
    </message>
    <message>
        <source>PERSIST removed its TTL: it never expires and receipts pile up</source>
        <translation>PERSIST 去掉了它的 TTL：它永不过期，回执越积越多</translation>
    </message>
    <message>
        <source>expires %1 s after seeding; a retry after that deducts again</source>
        <translation>生成数据后 %1 秒过期；此后重试会再扣减一次</translation>
    </message>
    <message>
        <source>SKU discontinued: its stock key was deleted after the order</source>
        <translation>SKU 已停售：下单后它的库存键被删除了</translation>
    </message>
    <message>
        <source>&quot;12.5&quot; is not a canonical integer: every FCALL fails with ERR invalid stock</source>
        <translation>“12.5”不是规范整数：每次 FCALL 都会以 ERR invalid stock 失败</translation>
    </message>
    <message>
        <source>&quot;-3&quot; written by hand: oversold, and FCALL refuses it</source>
        <translation>“-3”是手工写入的：已超卖，FCALL 会拒绝它</translation>
    </message>
    <message>
        <source>has a %1 h TTL: when it expires, deductions return {-2, 0}</source>
        <translation>带有 %1 小时的 TTL：过期后扣减会返回 {-2, 0}</translation>
    </message>
</context>
<context>
    <name>demo::DemoSeeder</name>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>refusing to seed: the database already holds %1 keys</source>
        <translation>拒绝写入演示数据：数据库中已有 %1 个键</translation>
    </message>
    <message>
        <source>the embedded library inventory_lib_v1.lua is missing</source>
        <translation>缺少内置函数库 inventory_lib_v1.lua</translation>
    </message>
    <message>
        <source>unexpected FCALL reply %1</source>
        <translation>意外的 FCALL 应答 %1</translation>
    </message>
</context>
<context>
    <name>demo::LocalRedisServer</name>
    <message>
        <source>redis-server was not found on PATH. Install it with &apos;sudo apt-get install redis-server&apos; (or run scripts/deps).</source>
        <translation>在 PATH 中找不到 redis-server。请用 &apos;sudo apt-get install redis-server&apos; 安装（或运行 scripts/deps）。</translation>
    </message>
    <message>
        <source>INVENTORY_REDIS_SERVER=%1 is not an executable file (scripts/servers prints the built ones)</source>
        <translation>INVENTORY_REDIS_SERVER=%1 不是可执行文件（scripts/servers 会列出已构建的服务器）</translation>
    </message>
    <message>
        <source>could not create a temporary directory: %1</source>
        <translation>无法创建临时目录：%1</translation>
    </message>
    <message>
        <source>no free loopback port was found</source>
        <translation>找不到空闲的回环端口</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>redis-server could not be started: %1</source>
        <translation>无法启动 redis-server：%1</translation>
    </message>
    <message>
        <source>redis-server exited at start-up: %1</source>
        <translation>redis-server 在启动时退出：%1</translation>
    </message>
    <message>
        <source>redis-server did not answer on port %1 within %2 ms</source>
        <translation>redis-server 在 %2 毫秒内未在端口 %1 上应答</translation>
    </message>
</context>
<context>
    <name>functions::AlignNodes</name>
    <message>
        <source>%1 is not a node of this cluster (nodes: %2)</source>
        <translation>%1 不是此集群的节点（节点：%2）</translation>
    </message>
    <message>
        <source>%1: nothing can be copied from it</source>
        <translation>%1：无法从它复制任何内容</translation>
    </message>
    <message>
        <source>%1 holds no library %2: pick a node that has it (see &apos;functions status&apos;)</source>
        <translation>%1 上没有函数库 %2：请选择一个有它的节点（见“functions status”）</translation>
    </message>
</context>
<context>
    <name>functions::CaseTwins</name>
    <message>
        <source>the dump for %1 in %2 cannot be read, so the libraries it would install are unknown: %3</source>
        <translation>%2 中 %1 的转储无法读取，因此不知道它会装入哪些函数库：%3</translation>
    </message>
    <message>
        <source>the dump for %1 holds library %2, whose function names differ only in case (%3): Redis 7.0 crashes (an assertion) when such a library is later replaced or deleted, so it is not restored</source>
        <translation>%1 的转储含有函数库 %2，其函数名仅大小写不同（%3）：此类函数库日后被替换或删除时 Redis 7.0 会崩溃（断言失败），因此不予恢复</translation>
    </message>
    <message>
        <source>library %1 inside the dump for %2 was refused offline: %3</source>
        <translation>%2 的转储中的函数库 %1 被离线检查拒绝：%3</translation>
    </message>
    <message>
        <source>library %1 inside the dump for %2 could not be inspected offline, so it is not loaded (this says nothing about the code; try again): %3</source>
        <translation>%2 的转储中的函数库 %1 无法离线检查，因此不予加载（这并不说明代码有问题；请重试）：%3</translation>
    </message>
    <message>
        <source>the dump for %1 does not hold what %2 lists (%3): it is not restored</source>
        <translation>%1 的转储与 %2 列出的内容不符（%3）：不予恢复</translation>
    </message>
    <message>
        <source>library %1 on %2 registers functions whose names differ only in case (%3): Redis 7.0 crashes (an assertion) when it replaces or deletes such a library, so %4 is not sent. Only FUNCTION FLUSH, or a restore with the FLUSH policy, removes it safely</source>
        <translation>%2 上的函数库 %1 注册了名称仅大小写不同的函数（%3）：Redis 7.0 替换或删除此类函数库时会崩溃（断言失败），因此不发送 %4。只有 FUNCTION FLUSH 或使用 FLUSH 策略的恢复能安全地移除它</translation>
    </message>
</context>
<context>
    <name>functions::ChangeLease</name>
    <message>
        <source>it lapsed or was taken by another change</source>
        <translation>它已过期，或被另一个变更取走</translation>
    </message>
    <message>
        <source>it lapses in %1 ms, before the write could be sure to run</source>
        <translation>它将在 %1 毫秒后过期，来不及确保写入执行</translation>
    </message>
    <message>
        <source>the change lock on %1 is no longer held by this change (%2): nothing was sent; start the change again</source>
        <translation>%1 上的变更锁已不再由本次变更持有（%2）：未发送任何内容；请重新开始变更</translation>
    </message>
    <message>
        <source>held by %1 for a %2 of %3 since %4 UTC (%5 s ago)</source>
        <translation>由 %1 持有，用于对 %3 的 %2，始于 %4 UTC（%5 秒前）</translation>
    </message>
    <message>
        <source>held by an unknown holder (value &apos;%1&apos;)</source>
        <translation>由未知持有者持有（值 &apos;%1&apos;）</translation>
    </message>
    <message>
        <source>%1; when it lapses is unknown</source>
        <translation>%1；不知何时失效</translation>
    </message>
    <message>
        <source>%1; it has no expiry, so it will not lapse by itself</source>
        <translation>%1；它没有过期时间，不会自行失效</translation>
    </message>
    <message>
        <source>%1; it lapses in %2 s unless its holder renews it</source>
        <translation>%1；除非持有者续期，它将在 %2 秒后失效</translation>
    </message>
    <message>
        <source>the change lock on %1 (key %2) is %3</source>
        <translation>%1 上的变更锁（键 %2）%3</translation>
    </message>
    <message>
        <source>the change lock on %1 (key %2) could not be taken: %3</source>
        <translation>无法获取 %1 上的变更锁（键 %2）：%3</translation>
    </message>
    <message>
        <source>%1. Nothing was changed: wait for that change to finish and run this again; a holder that died leaves a lock that lapses by itself when its time above runs out</source>
        <translation>%1。未做任何更改：请等那次变更完成后再运行；若持有者已退出，它留下的锁会在上述时间到期后自行失效</translation>
    </message>
</context>
<context>
    <name>functions::ChangePlan</name>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>could not read FUNCTION LIST: %1</source>
        <translation>无法读取 FUNCTION LIST：%1</translation>
    </message>
    <message>
        <source>could not read FUNCTION LIST on %1: %2</source>
        <translation>无法读取 %1 上的 FUNCTION LIST：%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>new code</source>
        <translation>新代码</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>backup %1 (%2)</source>
        <translation>备份 %1（%2）</translation>
    </message>
    <message>
        <source>loaded on %1 (%2)</source>
        <translation>已加载于 %1（%2）</translation>
    </message>
    <message>
        <source>FUNCTION RESTORE APPEND would fail: library %1 exists on %2 (choose REPLACE or FLUSH)</source>
        <translation>FUNCTION RESTORE APPEND 会失败：%2 上已有函数库 %1（请选择 REPLACE 或 FLUSH）</translation>
    </message>
    <message>
        <source>the dump comes from Redis %1 and %2 runs %3: a dump from a newer Redis does not restore on an older one</source>
        <translation>转储来自 Redis %1，而 %2 运行的是 %3：较新 Redis 的转储无法在较旧的 Redis 上恢复</translation>
    </message>
    <message>
        <source>the backup %1 has no node %2</source>
        <translation>备份 %1 中没有节点 %2</translation>
    </message>
    <message>
        <source>library %1 is not loaded on %2</source>
        <translation>函数库 %1 未加载在 %2 上</translation>
    </message>
    <message>
        <source>%1 restarted (or is another server) since the backup: its run_id changed</source>
        <translation>%1 自备份以来已重启（或是另一台服务器）：其 run_id 已改变</translation>
    </message>
    <message>
        <source>%1 is missing</source>
        <translation>缺少 %1</translation>
    </message>
    <message>
        <source>%1 holds other code (sha256 %2, expected %3)</source>
        <translation>%1 的代码不同（sha256 %2，应为 %3）</translation>
    </message>
    <message>
        <source>%1 is unexpectedly loaded</source>
        <translation>%1 意外地已加载</translation>
    </message>
</context>
<context>
    <name>functions::ChangeUser</name>
    <message>
        <source>ACL user &apos;%1&apos; (the profile&apos;s release user)</source>
        <translation>ACL 用户“%1”（配置中的发布用户）</translation>
    </message>
    <message>
        <source>ACL user &apos;%1&apos; (this session&apos;s user; the profile names no release user)</source>
        <translation>ACL 用户“%1”（本次会话的用户；配置中未指定发布用户）</translation>
    </message>
    <message>
        <source>grant it to the release user</source>
        <translation>请把该权限授予发布用户</translation>
    </message>
    <message>
        <source>set a release user in the connection profile (one that may FUNCTION LIST, DUMP, LOAD and RESTORE), or grant it to this user</source>
        <translation>请在连接配置中设置发布用户（可执行 FUNCTION LIST、DUMP、LOAD 和 RESTORE 的用户），或把该权限授予此用户</translation>
    </message>
    <message>
        <source>%1 (user &apos;%2&apos; lacks this permission: %3)</source>
        <translation>%1（用户 &apos;%2&apos; 缺少此权限：%3）</translation>
    </message>
</context>
<context>
    <name>functions::CodeDiff</name>
    <message>
        <source>only the final newline differs</source>
        <translation>只有末尾的换行符不同</translation>
    </message>
</context>
<context>
    <name>functions::ContractDiff</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>no-change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <source>compatible</source>
        <translation>兼容变更</translation>
    </message>
    <message>
        <source>breaking</source>
        <translation>破坏性变更</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>unchanged: its code and everything it uses are identical</source>
        <translation>未变：它的代码及其用到的一切都相同</translation>
    </message>
    <message>
        <source>code changed</source>
        <translation>代码已变更</translation>
    </message>
    <message>
        <source>in-place contract change: the code of %1 changed under the same contract name</source>
        <translation>原地契约变更：%1 的代码在同一契约名下变更了</translation>
    </message>
    <message>
        <source>removed: callers of %1 will get an error</source>
        <translation>已移除：%1 的调用方将收到错误</translation>
    </message>
    <message>
        <source>renamed %1 → %2 (case only; FCALL finds either)</source>
        <translation>重命名 %1 → %2（仅大小写；FCALL 两者都能找到）</translation>
    </message>
    <message>
        <source>flags change: %1 → %2</source>
        <translation>标志变更：%1 → %2</translation>
    </message>
    <message>
        <source>description changed</source>
        <translation>描述已变更</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>%1 is removed</source>
        <translation>%1 被移除</translation>
    </message>
    <message>
        <source>%1 changes flags: %2 → %3</source>
        <translation>%1 的标志变更：%2 → %3</translation>
    </message>
    <message>
        <source>library %1 is deleted</source>
        <translation>函数库 %1 被删除</translation>
    </message>
    <message>
        <source>%1 added</source>
        <translation>新增 %1 个</translation>
    </message>
    <message>
        <source>%1 removed</source>
        <translation>移除 %1 个</translation>
    </message>
    <message>
        <source>%1 changed</source>
        <translation>变更 %1 个</translation>
    </message>
    <message>
        <source>%1 collisions</source>
        <translation>冲突 %1 个</translation>
    </message>
    <message>
        <source>%1: %2; nothing was compared</source>
        <translation>%1：%2；未进行任何比较</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>%1 %2 → %3: %4</source>
        <translation>%1 %2 → %3：%4</translation>
    </message>
    <message>
        <source>%1 %2 → %3: %4 (%5)</source>
        <translation>%1 %2 → %3：%4（%5）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>the new code states no version (a &quot;-- version:&quot; line right after the shebang)</source>
        <translation>新代码没有声明版本（应在 shebang 之后紧跟一行“-- version:”）</translation>
    </message>
    <message>
        <source>the code changed but the version did not (%1)</source>
        <translation>代码已改变，但版本没有改变（%1）</translation>
    </message>
    <message>
        <source>the loaded code could not be inspected offline (%1): function bodies were not compared</source>
        <translation>已加载的代码无法离线检查（%1）：未比较函数体</translation>
    </message>
    <message>
        <source>in-place contract change: %1&apos;s code changed; an incompatible change needs a new name (_v%2)</source>
        <translation>原地契约变更：%1 的代码已改变；不兼容的变更需要新名称（_v%2）</translation>
    </message>
    <message>
        <source>the file was refused offline: %1</source>
        <translation>文件被离线检查拒绝：%1</translation>
    </message>
    <message>
        <source>the file could not be inspected offline, so it is not loaded (this says nothing about the code; try again): %1</source>
        <translation>文件无法离线检查，因此不予加载（这并不说明代码有问题；请重试）：%1</translation>
    </message>
    <message>
        <source>Function %1 already exists in library %2 (as %3)</source>
        <translation>函数 %1 已存在于函数库 %2 中（名为 %3）</translation>
    </message>
    <message>
        <source>the version goes down, %1 → %2: an older release replaces a newer one</source>
        <translation>版本降低，%1 → %2：较旧的发布替换了较新的发布</translation>
    </message>
</context>
<context>
    <name>functions::FinalState</name>
    <message>
        <source>loaded</source>
        <translation>已加载</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>rolled back</source>
        <translation>已回滚</translation>
    </message>
    <message>
        <source>restored</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未改变</translation>
    </message>
    <message>
        <source>not touched</source>
        <translation>未触及</translation>
    </message>
    <message>
        <source>rollback failed</source>
        <translation>回滚失败</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>functions::FunctionBackup</name>
    <message>
        <source>not a backup file (format &apos;%1&apos;)</source>
        <translation>不是备份文件（格式“%1”）</translation>
    </message>
    <message>
        <source>the dump of node %1 is damaged (SHA-256 mismatch)</source>
        <translation>节点 %1 的转储已损坏（SHA-256 不匹配）</translation>
    </message>
    <message>
        <source>the code of library %1 on node %2 is damaged (SHA-256 mismatch)</source>
        <translation>节点 %2 上函数库 %1 的代码已损坏（SHA-256 不匹配）</translation>
    </message>
    <message>
        <source>the backup names no library or no node</source>
        <translation>该备份没有指明函数库或节点</translation>
    </message>
    <message>
        <source>a backup named %1 already exists</source>
        <translation>名为 %1 的备份已存在</translation>
    </message>
    <message>
        <source>the backup would be %1 bytes, above the limit of %2 bytes that rollback reads; nothing was changed</source>
        <translation>备份将有 %1 字节，超过回滚可读取的 %2 字节上限；未做任何更改</translation>
    </message>
    <message>
        <source>not a backup file: not valid JSON (at byte %1)</source>
        <translation>不是备份文件：不是有效的 JSON（在第 %1 字节处）</translation>
    </message>
    <message>
        <source>not a backup file: the JSON is not an object</source>
        <translation>不是备份文件：JSON 不是一个对象</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>functions::Inspection</name>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>line %1: `server` is Valkey&apos;s name for `redis`; Redis has no such global, so this library will not load on Redis</source>
        <translation>第 %1 行：`server` 是 Valkey 对 `redis` 的称呼；Redis 没有这个全局变量，因此此函数库无法在 Redis 上加载</translation>
    </message>
    <message>
        <source>lines %1: `server` is Valkey&apos;s name for `redis`; Redis has no such global, so this library will not load on Redis</source>
        <translation>第 %1 行：`server` 是 Valkey 对 `redis` 的称呼；Redis 没有这个全局变量，因此此函数库无法在 Redis 上加载</translation>
    </message>
    <message>
        <source>line %1: `server` is Valkey&apos;s name for `redis`; on Redis the library loads but its functions fail when they reach these lines</source>
        <translation>第 %1 行：`server` 是 Valkey 对 `redis` 的称呼；在 Redis 上函数库可以加载，但其函数执行到这一行时会失败</translation>
    </message>
    <message>
        <source>lines %1: `server` is Valkey&apos;s name for `redis`; on Redis the library loads but its functions fail when they reach these lines</source>
        <translation>第 %1 行：`server` 是 Valkey 对 `redis` 的称呼；在 Redis 上函数库可以加载，但其函数执行到这些行时会失败</translation>
    </message>
    <message>
        <source>the inspection helper %1 was not found next to the program, in %2, or in $INVENTORY_LOAD_RUN</source>
        <translation>在程序旁、%2 中和 $INVENTORY_LOAD_RUN 中都找不到检查辅助程序 %1</translation>
    </message>
    <message>
        <source>the inspection helper %1 could not start: %2</source>
        <translation>检查辅助程序 %1 无法启动：%2</translation>
    </message>
    <message>
        <source>the top level used more than %1 ms of CPU time and was stopped: a single long C call (such as a backtracking string.find or a huge string.rep) cannot be interrupted, and Redis would be blocked as long by FUNCTION LOAD</source>
        <translation>顶层代码使用了超过 %1 毫秒的 CPU 时间，已被停止：单个耗时很长的 C 调用（例如回溯的 string.find 或巨大的 string.rep）无法被中断，而 FUNCTION LOAD 会让 Redis 同样阻塞这么久</translation>
    </message>
    <message>
        <source>the inspection did not finish within %1 s and was stopped: the machine is too busy to judge the code</source>
        <translation>检查未能在 %1 秒内完成，已被停止：本机太忙，无法判断这段代码</translation>
    </message>
    <message>
        <source>the inspection did not finish within %1 s and was stopped after %2 ms of CPU time: the machine is too busy to judge the code</source>
        <translation>检查未能在 %1 秒内完成，在用了 %2 毫秒 CPU 时间后被停止：本机太忙，无法判断这段代码</translation>
    </message>
    <message>
        <source>the inspection helper stopped abnormally</source>
        <translation>检查辅助程序异常终止</translation>
    </message>
    <message>
        <source>the inspection helper stopped abnormally: %1</source>
        <translation>检查辅助程序异常终止：%1</translation>
    </message>
    <message>
        <source>Missing library metadata</source>
        <translation>缺少函数库元数据</translation>
    </message>
    <message>
        <source>Invalid library metadata: the first line has no end</source>
        <translation>函数库元数据无效：第一行没有结束</translation>
    </message>
    <message>
        <source>Invalid library metadata</source>
        <translation>函数库元数据无效</translation>
    </message>
    <message>
        <source>Invalid metadata value, name argument was given multiple times</source>
        <translation>元数据值无效：name 参数给出了多次</translation>
    </message>
    <message>
        <source>Invalid metadata value given: %1</source>
        <translation>给出的元数据值无效：%1</translation>
    </message>
    <message>
        <source>Library name was not given</source>
        <translation>没有给出函数库名称</translation>
    </message>
    <message>
        <source>Library names can only contain letters, numbers, or underscores(_) and must be at least one character long</source>
        <translation>函数库名称只能包含字母、数字或下划线（_），且至少要有一个字符</translation>
    </message>
    <message>
        <source>Engine &apos;%1&apos; not found</source>
        <translation>找不到引擎“%1”</translation>
    </message>
    <message>
        <source>the library is %1 bytes, above the limit of %2 bytes</source>
        <translation>函数库有 %1 字节，超过 %2 字节的上限</translation>
    </message>
    <message>
        <source>not a text file: a NUL byte at offset %1</source>
        <translation>不是文本文件：偏移量 %1 处有一个 NUL 字节</translation>
    </message>
    <message>
        <source>the file starts with a UTF-8 byte order mark: Redis needs &apos;#!lua&apos; as its very first bytes (Missing library metadata); save it without the mark</source>
        <translation>文件以 UTF-8 字节顺序标记开头：Redis 要求最开头的字节就是“#!lua”（缺少函数库元数据）；请去掉该标记后保存</translation>
    </message>
    <message>
        <source>not UTF-8 text</source>
        <translation>不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>No functions registered</source>
        <translation>没有注册任何函数</translation>
    </message>
    <message>
        <source>the file is %1 bytes, above the limit of %2 bytes</source>
        <translation>文件有 %1 字节，超过 %2 字节的上限</translation>
    </message>
    <message>
        <source>redis.log() requires two arguments or more.</source>
        <translation>redis.log() 需要两个或更多参数。</translation>
    </message>
    <message>
        <source>First argument must be a number (log level).</source>
        <translation>第一个参数必须是数字（日志级别）。</translation>
    </message>
    <message>
        <source>Invalid debug level.</source>
        <translation>调试级别无效。</translation>
    </message>
    <message>
        <source>first argument to redis.register_function must be a string</source>
        <translation>redis.register_function 的第一个参数必须是字符串</translation>
    </message>
    <message>
        <source>second argument to redis.register_function must be a function</source>
        <translation>redis.register_function 的第二个参数必须是函数</translation>
    </message>
    <message>
        <source>function_name argument given to redis.register_function must be a string</source>
        <translation>传给 redis.register_function 的 function_name 参数必须是字符串</translation>
    </message>
    <message>
        <source>description argument given to redis.register_function must be a string</source>
        <translation>传给 redis.register_function 的 description 参数必须是字符串</translation>
    </message>
    <message>
        <source>callback argument given to redis.register_function must be a function</source>
        <translation>传给 redis.register_function 的 callback 参数必须是函数</translation>
    </message>
    <message>
        <source>flags argument to redis.register_function must be a table representing function flags</source>
        <translation>redis.register_function 的 flags 参数必须是表示函数标志的表</translation>
    </message>
    <message>
        <source>unknown flag given</source>
        <translation>给出了未知的标志</translation>
    </message>
    <message>
        <source>unknown argument given to redis.register_function</source>
        <translation>传给 redis.register_function 的参数未知</translation>
    </message>
    <message>
        <source>calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).</source>
        <translation>只有传入 Lua 表（表示命名参数）时，才能用单个参数调用 redis.register_function。</translation>
    </message>
    <message>
        <source>redis.register_function must get a function name argument</source>
        <translation>redis.register_function 必须得到函数名参数</translation>
    </message>
    <message>
        <source>redis.register_function must get a callback argument</source>
        <translation>redis.register_function 必须得到回调函数参数</translation>
    </message>
    <message>
        <source>Function names can only contain letters, numbers, or underscores(_) and must be at least one character long</source>
        <translation>函数名称只能包含字母、数字或下划线（_），且至少要有一个字符</translation>
    </message>
    <message>
        <source>Function already exists in the library: &apos;%1&apos; (line %2) and &apos;%3&apos; compare equal, ignoring case</source>
        <translation>函数库中已存在该函数：“%1”（第 %2 行）和“%3”在忽略大小写时相同</translation>
    </message>
    <message>
        <source>wrong number of arguments to redis.register_function</source>
        <translation>redis.register_function 的参数个数不对</translation>
    </message>
    <message>
        <source>Script attempted to access nonexistent global variable &apos;%1&apos;</source>
        <translation>脚本试图访问不存在的全局变量“%1”</translation>
    </message>
    <message>
        <source>Script attempted to access nonexistent global variable &apos;%1&apos; (redis.%1 is not available while a library loads)</source>
        <translation>脚本试图访问不存在的全局变量“%1”（加载函数库时没有 redis.%1）</translation>
    </message>
    <message>
        <source>Attempt to modify a readonly table (redis.%1)</source>
        <translation>试图修改只读表（redis.%1）</translation>
    </message>
    <message>
        <source>Attempt to modify a readonly table (global &apos;%1&apos;)</source>
        <translation>试图修改只读表（全局变量“%1”）</translation>
    </message>
    <message>
        <source>FUNCTION LOAD timeout: the top level ran past the load budget (%1 ms or %2 instructions)</source>
        <translation>FUNCTION LOAD 超时：顶层代码的运行超出了加载预算（%1 毫秒或 %2 条指令）</translation>
    </message>
    <message>
        <source>could not set up the Lua sandbox</source>
        <translation>无法建立 Lua 沙箱</translation>
    </message>
    <message>
        <source>not enough memory to compile</source>
        <translation>内存不足，无法编译</translation>
    </message>
    <message>
        <source>Error compiling function: %1</source>
        <translation>编译函数出错：%1</translation>
    </message>
    <message>
        <source>the top level allocated more than %1 MiB</source>
        <translation>顶层代码分配了超过 %1 MiB 的内存</translation>
    </message>
</context>
<context>
    <name>functions::LibraryChange</name>
    <message>
        <source>%1 holds %2 %3, %4 holds %5</source>
        <translation>%1 上的 %2 为 %3，%4 上为 %5</translation>
    </message>
    <message>
        <source>%1 holds %2 %3, %4 holds nothing</source>
        <translation>%1 上的 %2 为 %3，%4 上没有该函数库</translation>
    </message>
    <message>
        <source>the code was refused offline: %1</source>
        <translation>代码被离线检查拒绝：%1</translation>
    </message>
    <message>
        <source>the code could not be inspected offline, so it is not loaded (this says nothing about the code; try again): %1</source>
        <translation>代码无法离线检查，因此不予加载（这并不说明代码有问题；请重试）：%1</translation>
    </message>
    <message>
        <source>reading the state has not been done yet</source>
        <translation>尚未读取状态</translation>
    </message>
    <message>
        <source>the preflight has not been done yet</source>
        <translation>尚未进行预检</translation>
    </message>
    <message>
        <source>the backup has not been done yet</source>
        <translation>尚未进行备份</translation>
    </message>
    <message>
        <source>the confirmation has not been done yet</source>
        <translation>尚未确认</translation>
    </message>
    <message>
        <source>the change has not been done yet</source>
        <translation>尚未进行变更</translation>
    </message>
    <message>
        <source>user &apos;%1&apos; may run %2</source>
        <translation>用户“%1”可以运行 %2</translation>
    </message>
    <message>
        <source>user &apos;%1&apos; may not run %2: %3</source>
        <translation>用户“%1”不能运行 %2：%3</translation>
    </message>
    <message>
        <source>could not check (%1); the server still refuses a command the user may not run</source>
        <translation>无法检查（%1）；服务器仍会拒绝该用户无权运行的命令</translation>
    </message>
    <message>
        <source>Contract</source>
        <translation>契约</translation>
    </message>
    <message>
        <source>breaking (%1): %2; the confirmation asks for an acknowledgement</source>
        <translation>破坏性变更（%1）：%2；确认步骤会要求再次确认</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>no environment guard for this session</source>
        <translation>此会话没有环境防护</translation>
    </message>
    <message>
        <source>production, unlocked for this session</source>
        <translation>生产环境，本次会话已解锁</translation>
    </message>
    <message>
        <source>%1: writes allowed</source>
        <translation>%1：允许写入</translation>
    </message>
    <message>
        <source>Change lock on %1</source>
        <translation>%1 上的变更锁</translation>
    </message>
    <message>
        <source>user &apos;%1&apos; may take and give back the change lock (key %2)</source>
        <translation>用户“%1”可以获取并交还变更锁（键 %2）</translation>
    </message>
    <message>
        <source>Permission on %1</source>
        <translation>%1 上的权限</translation>
    </message>
    <message>
        <source>nothing to change on this node</source>
        <translation>此节点上没有需要变更的内容</translation>
    </message>
    <message>
        <source>Backup on %1</source>
        <translation>%1 上的备份</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>顺序</translation>
    </message>
    <message>
        <source>this change was already made once; start a new one</source>
        <translation>此变更已经执行过一次；请重新开始一个变更</translation>
    </message>
    <message>
        <source>no environment guard</source>
        <translation>没有环境防护</translation>
    </message>
    <message>
        <source>unknown: could not read FUNCTION LIST (%1)</source>
        <translation>未知：无法读取 FUNCTION LIST（%1）</translation>
    </message>
    <message>
        <source>no %1</source>
        <translation>没有 %1</translation>
    </message>
    <message>
        <source>loaded, then rolled back as %1 failed: the backed-up code is in place again (verified)</source>
        <translation>已加载，随后因 %1 失败而回滚：备份的代码已重新就位（已验证）</translation>
    </message>
    <message>
        <source>deleted, then rolled back as %1 failed: the backed-up code is in place again (verified)</source>
        <translation>已删除，随后因 %1 失败而回滚：备份的代码已重新就位（已验证）</translation>
    </message>
    <message>
        <source>rolled back, then rolled back as %1 failed: the backed-up code is in place again (verified)</source>
        <translation>已回滚，随后因 %1 失败而再次回滚：备份的代码已重新就位（已验证）</translation>
    </message>
    <message>
        <source>restored, then rolled back as %1 failed: the backed-up code is in place again (verified)</source>
        <translation>已恢复，随后因 %1 失败而回滚：备份的代码已重新就位（已验证）</translation>
    </message>
    <message>
        <source>loaded, then, as %1 failed, the rollback failed: %2</source>
        <translation>已加载，随后因 %1 失败而回滚，但回滚失败：%2</translation>
    </message>
    <message>
        <source>deleted, then, as %1 failed, the rollback failed: %2</source>
        <translation>已删除，随后因 %1 失败而回滚，但回滚失败：%2</translation>
    </message>
    <message>
        <source>rolled back, then, as %1 failed, the rollback failed: %2</source>
        <translation>已回滚，随后因 %1 失败而再次回滚，但回滚失败：%2</translation>
    </message>
    <message>
        <source>restored, then, as %1 failed, the rollback failed: %2</source>
        <translation>已恢复，随后因 %1 失败而回滚，但回滚失败：%2</translation>
    </message>
    <message>
        <source>not touched: the change stopped at %1</source>
        <translation>未触及：变更在 %1 处停止</translation>
    </message>
    <message>
        <source>the server said OK</source>
        <translation>服务器回复 OK</translation>
    </message>
    <message>
        <source>refused by %1: %2</source>
        <translation>被 %1 拒绝：%2</translation>
    </message>
    <message>
        <source>no reply (%1)</source>
        <translation>没有应答（%1）</translation>
    </message>
    <message>
        <source>%1; the verification could not be read (%2), so what %3 holds now is unknown: read its libraries before anything else</source>
        <translation>%1；无法读取验证结果（%2），因此 %3 现在持有什么未知：在做任何其他事之前先读取它的函数库</translation>
    </message>
    <message>
        <source>done and verified: %1 holds exactly the expected code</source>
        <translation>完成并已验证：%1 持有的正是预期的代码</translation>
    </message>
    <message>
        <source>the server said OK but the verification failed: %1</source>
        <translation>服务器回复 OK，但验证失败：%1</translation>
    </message>
    <message>
        <source>%1; the verification shows the change was made</source>
        <translation>%1；验证显示变更已执行</translation>
    </message>
    <message>
        <source>%1; the verification shows the change was not made</source>
        <translation>%1；验证显示变更未执行</translation>
    </message>
    <message>
        <source>refused by %1: %2; the previous libraries are still in place (verified)</source>
        <translation>被 %1 拒绝：%2；之前的函数库仍然就位（已验证）</translation>
    </message>
    <message>
        <source>refused by %1: %2; the libraries differ from before: %3</source>
        <translation>被 %1 拒绝：%2；函数库与之前不同：%3</translation>
    </message>
    <message>
        <source>nothing to change: the node already holds the result</source>
        <translation>无需变更：该节点已持有变更后的结果</translation>
    </message>
    <message>
        <source>%1 changed since the backup (%2): nothing was sent; read the state again</source>
        <translation>%1 在备份之后发生了变化（%2）：未发送任何内容；请重新读取状态</translation>
    </message>
    <message>
        <source>nothing was sent to %1: %2</source>
        <translation>未向 %1 发送任何内容：%2</translation>
    </message>
    <message>
        <source>nothing was sent to %1: the load journal could not be written: %2</source>
        <translation>未向 %1 发送任何内容：无法写入加载日志：%2</translation>
    </message>
    <message>
        <source>%1 (the audit record could not be written: %2)</source>
        <translation>%1（无法写入审计记录：%2）</translation>
    </message>
    <message>
        <source>backup of %1 failed: could not read FUNCTION LIST: %2</source>
        <translation>%1 的备份失败：无法读取 FUNCTION LIST：%2</translation>
    </message>
    <message>
        <source>FUNCTION DUMP on %1 failed: %2</source>
        <translation>%1 上的 FUNCTION DUMP 失败：%2</translation>
    </message>
    <message>
        <source>the libraries on %1 changed since they were read (%2): read them again and review the diff</source>
        <translation>%1 上的函数库在读取后已变化（%2）：请重新读取并复查差异</translation>
    </message>
    <message>
        <source>FUNCTION DUMP on %1 gave a payload that cannot be restored (%2): no backup was written and nothing was changed</source>
        <translation>%1 上的 FUNCTION DUMP 给出的数据无法恢复（%2）：未写入备份，也未做任何更改</translation>
    </message>
    <message>
        <source>type the library name exactly (%1) to confirm</source>
        <translation>请准确输入函数库名称（%1）以确认</translation>
    </message>
    <message>
        <source>this change is breaking (%1): acknowledge it as well</source>
        <translation>此变更是破坏性变更（%1）：请同时勾选确认</translation>
    </message>
</context>
<context>
    <name>functions::LibraryMatrix</name>
    <message>
        <source>could not read FUNCTION LIST on %1: %2</source>
        <translation>无法读取 %1 上的 FUNCTION LIST：%2</translation>
    </message>
    <message>
        <source>%1 is missing on %2 (%3 has %4)</source>
        <translation>%2 上缺少 %1（%3 上是 %4）</translation>
    </message>
    <message>
        <source>%1 on %2 has other code under the same version: %3, %4 has %5</source>
        <translation>%2 上的 %1 版本相同但代码不同：%3，%4 上是 %5</translation>
    </message>
    <message>
        <source>%1 on %2 is %3, %4 has %5</source>
        <translation>%2 上的 %1 是 %3，%4 上是 %5</translation>
    </message>
    <message>
        <source>%1 differs from its primary, although replication copies a primary&apos;s libraries: it was changed on its own (a writable replica) or stopped following (see master_link_status in INFO replication). Loading the primary does not reach it: resynchronise it, or load the library on it directly.</source>
        <translation>%1 与其主节点不同，尽管复制会复制主节点的函数库：它被单独改动过（可写副本），或已停止跟随（见 INFO replication 中的 master_link_status）。加载主节点不会影响它：请重新同步它，或直接在它上面加载该函数库。</translation>
    </message>
    <message>
        <source>%1 differ from their primaries, although replication copies a primary&apos;s libraries: they were changed on their own (a writable replica) or stopped following (see master_link_status in INFO replication). Loading the primary does not reach them: resynchronise them, or load the library on them directly.</source>
        <translation>%1 与各自的主节点不同，尽管复制会复制主节点的函数库：它们被单独改动过（可写副本），或已停止跟随（见 INFO replication 中的 master_link_status）。加载主节点不会影响它们：请重新同步它们，或直接在它们上面加载该函数库。</translation>
    </message>
    <message>
        <source>no connection to this node</source>
        <translation>没有到该节点的连接</translation>
    </message>
</context>
<context>
    <name>functions::LoadJournal</name>
    <message>
        <source>a load of %1 %2 was interrupted at %3 UTC (backup %4); %5</source>
        <translation>%1 %2 的加载在 UTC %3 被中断（备份 %4）；%5</translation>
    </message>
    <message>
        <source>a delete of %1 %2 was interrupted at %3 UTC (backup %4); %5</source>
        <translation>%1 %2 的删除在 UTC %3 被中断（备份 %4）；%5</translation>
    </message>
    <message>
        <source>a rollback of %1 %2 was interrupted at %3 UTC (backup %4); %5</source>
        <translation>%1 %2 的回滚在 UTC %3 被中断（备份 %4）；%5</translation>
    </message>
    <message>
        <source>a restore of %1 %2 was interrupted at %3 UTC (backup %4); %5</source>
        <translation>%1 %2 的恢复在 UTC %3 被中断（备份 %4）；%5</translation>
    </message>
    <message>
        <source>what %1 holds now is unknown (could not read FUNCTION LIST: %2)</source>
        <translation>%1 现在持有什么未知（无法读取 FUNCTION LIST：%2）</translation>
    </message>
    <message>
        <source>%1 now has no library %2</source>
        <translation>%1 现在没有函数库 %2</translation>
    </message>
    <message>
        <source>%1 now has %2 without a version line</source>
        <translation>%1 现在持有没有版本行的 %2</translation>
    </message>
    <message>
        <source>%1 now has %2</source>
        <translation>%1 现在持有 %2</translation>
    </message>
    <message>
        <source>a %1 of %2 %3 was interrupted at %4 UTC (backup %5); %6</source>
        <translation>%2 %3 的 %1 操作在 UTC %4 被中断（备份 %5）；%6</translation>
    </message>
</context>
<context>
    <name>functions::LocalCatalog</name>
    <message>
        <source>identical to %1</source>
        <translation>与 %1 相同</translation>
    </message>
    <message>
        <source>differs from %1 (%2)</source>
        <translation>与 %1（%2）不同</translation>
    </message>
    <message>
        <source>unknown (no local file of this library)</source>
        <translation>未知（没有该函数库的本地文件）</translation>
    </message>
    <message>
        <source>shipped functions/%1</source>
        <translation>随附的 functions/%1</translation>
    </message>
    <message>
        <source>previous release %1</source>
        <translation>上一个发行版 %1</translation>
    </message>
</context>
<context>
    <name>functions::StandaloneGroup</name>
    <message>
        <source>INFO replication did not answer with text</source>
        <translation>INFO replication 没有以文本应答</translation>
    </message>
    <message>
        <source>%1 (announced as %2)</source>
        <translation>%1（通告为 %2）</translation>
    </message>
    <message>
        <source>primary %1 could not be reached: check its announced-address mapping</source>
        <translation>无法访问主节点 %1：请检查它的通告地址映射</translation>
    </message>
    <message>
        <source>replica %1 could not be reached: check its announced-address mapping</source>
        <translation>无法访问副本 %1：请检查它的通告地址映射</translation>
    </message>
    <message>
        <source>primary %1 could not be reached at the address %2 gives; if it is behind a NAT or in a container, map that address to one this machine reaches: &quot;Announced addresses&quot; on the connection profile&apos;s &quot;%3&quot; tab, or inventory-cli&apos;s --announced-map</source>
        <translation>无法通过 %2 给出的地址访问主节点 %1；如果它在 NAT 之后或在容器中，请把该地址映射到本机能访问的地址：连接配置“%3”标签页上的“公布的地址”，或 inventory-cli 的 --announced-map</translation>
    </message>
    <message>
        <source>replica %1 could not be reached at the address %2 gives; if it is behind a NAT or in a container, map that address to one this machine reaches: &quot;Announced addresses&quot; on the connection profile&apos;s &quot;%3&quot; tab, or inventory-cli&apos;s --announced-map</source>
        <translation>无法通过 %2 给出的地址访问副本 %1；如果它在 NAT 之后或在容器中，请把该地址映射到本机能访问的地址：连接配置“%3”标签页上的“公布的地址”，或 inventory-cli 的 --announced-map</translation>
    </message>
    <message>
        <source>replicas not checked: %1</source>
        <translation>未检查副本：%1</translation>
    </message>
    <message>
        <source>%1; the replicas are those INFO replication names</source>
        <translation>%1；副本以 INFO replication 列出的为准</translation>
    </message>
    <message>
        <source>the other replicas of %1 not checked: %2</source>
        <translation>未检查 %1 的其他副本：%2</translation>
    </message>
    <message>
        <source>%1, the primary INFO replication names, not checked: %2</source>
        <translation>未检查 INFO replication 指明的主节点 %1：%2</translation>
    </message>
    <message>
        <source>%1, the primary INFO replication names, is left out: the server answering there is a replica with replication id %2, not this server&apos;s primary (%3)</source>
        <translation>INFO replication 指明的主节点 %1 已被排除：在那里应答的服务器是一个副本，复制 ID 为 %2，不是本服务器的主节点（%3）</translation>
    </message>
    <message>
        <source>%1, the primary INFO replication names, is left out: the server answering there is a primary with replication id %2, not this server&apos;s primary (%3)</source>
        <translation>INFO replication 指明的主节点 %1 已被排除：在那里应答的服务器是一个主节点，复制 ID 为 %2，不是本服务器的主节点（%3）</translation>
    </message>
    <message>
        <source>the replica source (SENTINEL REPLICAS)</source>
        <translation>副本来源（SENTINEL REPLICAS）</translation>
    </message>
    <message>
        <source>replica %1 not checked: %2</source>
        <translation>未检查副本 %1：%2</translation>
    </message>
    <message>
        <source>replica %1 is left out: the server answering there does not share the group&apos;s replication id (%2)</source>
        <translation>副本 %1 已被排除：在那里应答的服务器与该组的复制 ID（%2）不同</translation>
    </message>
</context>
<context>
    <name>gate::CommandTraits</name>
    <message>
        <source>FCALL without a function name: treated as a write</source>
        <translation>没有函数名的 FCALL：按写入处理</translation>
    </message>
    <message>
        <source>function %1 has no &apos;no-writes&apos; flag, so it may write</source>
        <translation>函数 %1 没有“no-writes”标志，因此它可能写入</translation>
    </message>
    <message>
        <source>function %1 is flagged no-writes</source>
        <translation>函数 %1 带有 no-writes 标志</translation>
    </message>
    <message>
        <source>function %1: its flags could not be read (%2), so it is treated as a write</source>
        <translation>函数 %1：无法读取它的标志（%2），因此按写入处理</translation>
    </message>
    <message>
        <source>function %1 is not loaded on this server: treated as a write</source>
        <translation>函数 %1 未装入此服务器：按写入处理</translation>
    </message>
    <message>
        <source>an empty command</source>
        <translation>空命令</translation>
    </message>
    <message>
        <source>%1 is read-only (the server enforces it)</source>
        <translation>%1 是只读的（由服务器强制保证）</translation>
    </message>
    <message>
        <source>%1: scripts are treated as writes (use %1_RO for a read-only script)</source>
        <translation>%1：脚本按写入处理（只读脚本请用 %1_RO）</translation>
    </message>
    <message>
        <source>%1 only reads (COMMAND INFO unavailable: %2)</source>
        <translation>%1 只读取（COMMAND INFO 不可用：%2）</translation>
    </message>
    <message>
        <source>%1: whether it writes could not be read (%2), so it is treated as a write</source>
        <translation>%1：无法读取它是否写入（%2），因此按写入处理</translation>
    </message>
    <message>
        <source>no COMMAND INFO reply</source>
        <translation>没有 COMMAND INFO 应答</translation>
    </message>
    <message>
        <source>%1 is not a command this server knows: treated as a write</source>
        <translation>%1 不是此服务器认识的命令：按写入处理</translation>
    </message>
    <message>
        <source>%1 is not a subcommand this server knows: treated as a write</source>
        <translation>%1 不是此服务器认识的子命令：按写入处理</translation>
    </message>
    <message>
        <source>ACL LOG RESET clears the log</source>
        <translation>ACL LOG RESET 会清空日志</translation>
    </message>
    <message>
        <source>%1 writes (the server flags it &apos;write&apos;)</source>
        <translation>%1 会写入（服务器给它标了“write”）</translation>
    </message>
    <message>
        <source>%1 is an admin command that changes the server</source>
        <translation>%1 是会改变服务器的管理命令</translation>
    </message>
    <message>
        <source>%1 only reads</source>
        <translation>%1 只读取</translation>
    </message>
</context>
<context>
    <name>gate::GatedSender</name>
    <message>
        <source>%1 (the function now writes; the server refused it as FCALL_RO and ran nothing)</source>
        <translation>%1（该函数现在会写入；服务器以 FCALL_RO 拒绝了它，什么也没有执行）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (not sent with a refused write in the same batch: %2)</source>
        <translation>%1（与同一批中被拒绝的写入一起未发送：%2）</translation>
    </message>
</context>
<context>
    <name>gate::LocalProof</name>
    <message>
        <source>local: the console started this server (process %1)</source>
        <translation>本地：此服务器由控制台启动（进程 %1）</translation>
    </message>
    <message>
        <source>not proven local: %1; treated as production</source>
        <translation>未证实为本地：%1；按生产环境对待</translation>
    </message>
    <message>
        <source>%1 is a name, not an address: which process answers cannot be told</source>
        <translation>%1 是主机名而不是地址：无法判断是哪个进程在应答</translation>
    </message>
    <message>
        <source>%1 is not an address of this machine</source>
        <translation>%1 不是本机的地址</translation>
    </message>
    <message>
        <source>the server did not say its process_id (INFO server)</source>
        <translation>服务器没有给出它的 process_id（INFO server）</translation>
    </message>
    <message>
        <source>the server&apos;s process %1 is not on this machine (no redis-server or valkey-server with that id here) — a tunnel or container?</source>
        <translation>服务器的进程 %1 不在本机上（本机没有该进程号的 redis-server 或 valkey-server）——是隧道还是容器？</translation>
    </message>
    <message>
        <source>no listening socket on port %1 is visible here</source>
        <translation>在本机看不到端口 %1 上的监听套接字</translation>
    </message>
    <message>
        <source>%1/fd is not readable (another user&apos;s process), so which process owns port %2 cannot be told</source>
        <translation>%1/fd 不可读（属于其他用户的进程），因此无法判断哪个进程占用端口 %2</translation>
    </message>
    <message>
        <source>the server&apos;s process %1 (%2) does not own the socket listening on port %3 — a tunnel, port-forward or relay answers there</source>
        <translation>服务器的进程 %1（%2）并不拥有在端口 %3 上监听的套接字——在那里应答的是隧道、端口转发或中继</translation>
    </message>
    <message>
        <source>local: %1 (process %2, %3) owns port %4</source>
        <translation>本地：%1（进程 %2，%3）拥有端口 %4</translation>
    </message>
    <message>
        <source>checking whether the server runs on this machine…</source>
        <translation>正在检查服务器是否在本机上运行…</translation>
    </message>
</context>
<context>
    <name>gate::ReadOnlySender</name>
    <message>
        <source>not sent: this view only reads, and %1 is not a command it knows to be a read (nothing in the batch was sent)</source>
        <translation>未发送：此视图只读取，而 %1 不是它确知为读取的命令（这一批中什么也没有发送）</translation>
    </message>
</context>
<context>
    <name>gate::WriteGate</name>
    <message>
        <source>locked again: no write for %1 minutes since the unlock or the last write</source>
        <translation>已再次锁定：自解锁或上次写入以来 %1 分钟没有写入</translation>
    </message>
    <message>
        <source>%1: the label of profile &apos;%2&apos;</source>
        <translation>%1：配置“%2”的标签</translation>
    </message>
    <message>
        <source>read-only session on profile &apos;%1&apos; (%2): unlock it (type the profile name) to allow writes</source>
        <translation>配置“%1”的只读会话（%2）：请解锁（输入配置名称）以允许写入</translation>
    </message>
    <message>
        <source>read-only session on %1 profile &apos;%2&apos;: unlock it (type the profile name) to allow writes</source>
        <translation>%1 配置“%2”的只读会话：请解锁（输入配置名称）以允许写入</translation>
    </message>
    <message>
        <source>INFO server could not be read</source>
        <translation>无法读取 INFO server</translation>
    </message>
    <message>
        <source>INFO server could not be read (%1)</source>
        <translation>无法读取 INFO server（%1）</translation>
    </message>
    <message>
        <source>the gate has no direct connection to ask the server</source>
        <translation>写入闸门没有可以询问服务器的直接连接</translation>
    </message>
    <message>
        <source>that is not this profile&apos;s name</source>
        <translation>这不是此配置的名称</translation>
    </message>
    <message>
        <source>the unlock could not be recorded in the audit log (%1): writes stay locked</source>
        <translation>无法在审计日志中记录这次解锁（%1）：写入保持锁定</translation>
    </message>
    <message>
        <source>locked again: the server&apos;s run_id changed from %1 to %2 (a restart, or another server behind the address); unlock again for this one</source>
        <translation>已再次锁定：服务器的 run_id 从 %1 变为 %2（发生了重启，或该地址后面换了另一台服务器）；请针对这台服务器重新解锁</translation>
    </message>
    <message>
        <source>locked again: the server&apos;s role changed from %1 to %2 (a failover)</source>
        <translation>已再次锁定：服务器的角色从 %1 变为 %2（发生了故障转移）</translation>
    </message>
    <message>
        <source>not sent: which nodes this local session would write to is not known yet (the cluster&apos;s topology is being read); try again</source>
        <translation>未发送：尚不知道此本地会话会写入哪些节点（正在读取集群拓扑）；请重试</translation>
    </message>
    <message>
        <source>node %1 is production to this local session (%2): unlock it (type the profile name &apos;%3&apos;) to write there</source>
        <translation>对此本地会话而言，节点 %1 是生产环境（%2）：请解锁（输入配置名称“%3”）后再向其写入</translation>
    </message>
</context>
<context>
    <name>inventory::AuditLog</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>line %1: truncated or corrupt record skipped (%2)</source>
        <translation>第 %1 行：记录被截断或已损坏，已跳过（%2）</translation>
    </message>
    <message>
        <source>the audit log at %1 could not be written: %2</source>
        <translation>无法写入位于 %1 的审计日志：%2</translation>
    </message>
    <message>
        <source>it is a symbolic link; the audit log is written only to a regular file</source>
        <translation>它是符号链接；审计日志只写入普通文件</translation>
    </message>
    <message>
        <source>cannot open it (%1)</source>
        <translation>无法打开它（%1）</translation>
    </message>
    <message>
        <source>it is not a regular file</source>
        <translation>它不是普通文件</translation>
    </message>
    <message>
        <source>the record was written only in part (%1)</source>
        <translation>记录只写入了一部分（%1）</translation>
    </message>
    <message>
        <source>no space written</source>
        <translation>未写入任何字节</translation>
    </message>
    <message>
        <source>fsync failed (%1)</source>
        <translation>fsync 失败（%1）</translation>
    </message>
    <message>
        <source>%1. Nothing was sent: a write is sent only once its audit record is on disk. Fix the audit log (permissions, free space), then try again</source>
        <translation>%1。未发送任何内容：写操作只在其审计记录落盘后才发送。请修复审计日志（权限、剩余空间），然后重试</translation>
    </message>
</context>
<context>
    <name>inventory::AuditServerChange</name>
    <message>
        <source>The server at %1 restarted or failed over after this write: it now answers with run_id %2, started %3 UTC. Without persistence that kept them, the receipts written before are gone.</source>
        <translation>位于 %1 的服务器在这次写入之后重启或发生了故障转移：它现在以 run_id %2 应答，启动于 UTC %3。除非有持久化保留了它们，之前写入的回执已经丢失。</translation>
    </message>
    <message>
        <source>The server at %1 now answers with another run_id (%2): a failover, or another server took that address after this write. Receipts it did not replicate are gone.</source>
        <translation>位于 %1 的服务器现在以另一个 run_id（%2）应答：这次写入之后发生了故障转移，或另一台服务器接管了该地址。它没有复制到的回执已经丢失。</translation>
    </message>
    <message>
        <source>The server at %1 now answers with another run_id (%2, running since %3 UTC): a failover, or another server took that address after this write. Receipts it did not replicate are gone.</source>
        <translation>位于 %1 的服务器现在以另一个 run_id（%2，自 UTC %3 起运行）应答：这次写入之后发生了故障转移，或另一台服务器接管了该地址。它没有复制到的回执已经丢失。</translation>
    </message>
</context>
<context>
    <name>inventory::AuditTableModel</name>
    <message>
        <source>Time (UTC)</source>
        <translation>时间 (UTC)</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Unknown?</source>
        <translation>未知？</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>OS user</source>
        <translation>系统用户</translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation>耗时（毫秒）</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>One deduction in %1 writes: the script was not loaded (NOSCRIPT), so the console loaded it and sent the same EVALSHA again. Select the row to see each step.</source>
        <translation>一次扣减用了 %1 次写入：脚本未加载 (NOSCRIPT)，控制台加载后再次发送了同一条 EVALSHA。选中该行可查看每一步。</translation>
    </message>
    <message>
        <source>%1 (%2 steps)</source>
        <translation>%1（%2 步）</translation>
    </message>
    <message>
        <source>yes: no reply recorded</source>
        <translation>是：未记录应答</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>%1 (run_id changed since)</source>
        <translation>%1（此后 run_id 已变化）</translation>
    </message>
</context>
<context>
    <name>inventory::Deducer</name>
    <message>
        <source>not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <source>could not read (%1)</source>
        <translation>无法读取（%1）</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>The stock could not be read (%1); try again when the server answers.</source>
        <translation>无法读取库存（%1）；请在服务器应答后再试。</translation>
    </message>
    <message>
        <source>The stock key does not exist now. The script does not create or delete stock; someone else changed it.</source>
        <translation>库存键现在不存在。脚本不会创建或删除库存；是别人改动了它。</translation>
    </message>
    <message>
        <source>Stock is %1 now; it was not read before the call, so nothing can be concluded. Compare with your order records.</source>
        <translation>库存现在是 %1；调用前未读取库存，因此无法得出任何结论。请与你的订单记录核对。</translation>
    </message>
    <message>
        <source>This is evidence only if no other client changed this SKU meanwhile. The script keeps no receipt.</source>
        <translation>只有在此期间没有其他客户端改动这个 SKU 时，这才算证据。脚本不保留回执。</translation>
    </message>
    <message>
        <source>Stock is %1 now, %2 just before the call: it went down by exactly the quantity (%3), so the deduction most likely happened. Do not run it again.</source>
        <translation>库存现在是 %1，调用前一刻是 %2：恰好减少了扣减数量（%3），因此扣减很可能已发生。不要再运行一次。</translation>
    </message>
    <message>
        <source>Stock is %1 now, %2 just before the call: unchanged, so the deduction most likely did not happen.</source>
        <translation>库存现在是 %1，调用前一刻是 %2：没有变化，因此扣减很可能没有发生。</translation>
    </message>
    <message>
        <source>Stock is %1 now, %2 just before the call: it changed by %3, not by the quantity (%4); other clients changed it, so nothing can be concluded.</source>
        <translation>库存现在是 %1，调用前一刻是 %2：变化了 %3，而不是扣减数量（%4）；其他客户端改动过它，因此无法得出任何结论。</translation>
    </message>
    <message>
        <source>No receipt, but the call failed in a way that may come after a write: if the stock went down by the quantity, the deduction happened without its receipt, and a retry with the same order id would deduct again.</source>
        <translation>没有回执，但该调用的失败方式可能发生在写入之后：如果库存减少了扣减数量，说明扣减已发生却没有写下回执，用同一订单号重试会再扣减一次。</translation>
    </message>
    <message>
        <source>No receipt found, though this call&apos;s reply said one was there: it expired, was evicted or was deleted since, so a retry of this order would deduct again.</source>
        <translation>未找到回执，而该调用的应答说回执存在：它此后已过期、被驱逐或被删除，因此重试该订单会再扣减一次。</translation>
    </message>
    <message>
        <source>NOSCRIPT: the script is not loaded, so the deduction did not run; SCRIPT LOAD was not sent because %1</source>
        <translation>NOSCRIPT：脚本未加载，因此扣减没有执行；SCRIPT LOAD 没有发送，因为 %1</translation>
    </message>
    <message>
        <source>the script was not loaded (NOSCRIPT) and SCRIPT LOAD failed: %1; the deduction did not run</source>
        <translation>脚本未加载（NOSCRIPT），且 SCRIPT LOAD 失败：%1；扣减没有执行</translation>
    </message>
    <message>
        <source>SCRIPT LOAD answered %1, not the expected sha1 %2 (an anomaly)</source>
        <translation>SCRIPT LOAD 应答为 %1，而不是预期的 sha1 %2（异常）</translation>
    </message>
    <message>
        <source>GET answered %1, not a value (an anomaly)</source>
        <translation>GET 应答为 %1，而不是值（异常）</translation>
    </message>
</context>
<context>
    <name>inventory::DeductionHistory</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Remaining / stock</source>
        <translation>剩余 / 库存</translation>
    </message>
    <message>
        <source>Last check</source>
        <translation>最近检查</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <source>remaining %1</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <source>stock %1</source>
        <translation>库存 %1</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1（于 %2）</translation>
    </message>
    <message>
        <source>check failed</source>
        <translation>检查失败</translation>
    </message>
    <message>
        <source>happened; receipt TTL %1</source>
        <translation>已发生；回执 TTL %1</translation>
    </message>
    <message>
        <source>no receipt; the call may have written</source>
        <translation>无回执；该调用可能已写入</translation>
    </message>
    <message>
        <source>receipt gone: a retry deducts</source>
        <translation>回执已不在：重试会扣减</translation>
    </message>
    <message>
        <source>no receipt found</source>
        <translation>未找到回执</translation>
    </message>
    <message>
        <source>stock now %1</source>
        <translation>当前库存 %1</translation>
    </message>
</context>
<context>
    <name>inventory::DeductionOutcome</name>
    <message>
        <source>Deducted</source>
        <translation>已扣减</translation>
    </message>
    <message>
        <source>Already applied</source>
        <translation>已处理过</translation>
    </message>
    <message>
        <source>Insufficient stock</source>
        <translation>库存不足</translation>
    </message>
    <message>
        <source>Stock missing</source>
        <translation>库存键不存在</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <source>Error, may have written</source>
        <translation>出错，可能已写入</translation>
    </message>
    <message>
        <source>Outcome unknown</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>Not sent</source>
        <translation>未发送</translation>
    </message>
    <message>
        <source>Stock was deducted and this order&apos;s receipt was written. Remaining stock: %1.</source>
        <translation>库存已扣减，并已写入该订单的回执。剩余库存：%1。</translation>
    </message>
    <message>
        <source>Stock was deducted. Remaining stock: %1. The script keeps no receipt.</source>
        <translation>库存已扣减。剩余库存：%1。脚本不保留回执。</translation>
    </message>
    <message>
        <source>Not enough stock: %1 available, fewer than asked. Nothing was written (no receipt).</source>
        <translation>库存不足：可用 %1，少于请求的数量。未写入任何内容（没有回执）。</translation>
    </message>
    <message>
        <source>Not enough stock: %1 available, fewer than asked. Nothing was written.</source>
        <translation>库存不足：可用 %1，少于请求的数量。未写入任何内容。</translation>
    </message>
    <message>
        <source>The stock key does not exist. Nothing was written: a deduction never creates stock.</source>
        <translation>库存键不存在。未写入任何内容：扣减从不创建库存。</translation>
    </message>
    <message>
        <source>The server refused the call: %1. Nothing was written.</source>
        <translation>服务器拒绝了该调用：%1。未写入任何内容。</translation>
    </message>
    <message>
        <source>The call was sent but its result is unknown (%1). The deduction may or may not have happened.</source>
        <translation>调用已发送，但结果未知（%1）。扣减可能已发生，也可能没有发生。</translation>
    </message>
    <message>
        <source>Nothing was sent to the server: %1. Nothing changed.</source>
        <translation>没有向服务器发送任何内容：%1。没有任何改变。</translation>
    </message>
    <message>
        <source>This order was already deducted, with quantity %1, not the quantity asked now. Nothing changed.</source>
        <translation>该订单之前已扣减过，数量为 %1，而不是这次请求的数量。没有任何改变。</translation>
    </message>
    <message>
        <source>This order was already deducted earlier; nothing changed. But %1: an anomaly (written by hand or by other code), so what the first deduction left is unknown.</source>
        <translation>该订单之前已扣减过；没有任何改变。但是%1：这是异常（由人手或其他代码写入），因此第一次扣减后剩余多少未知。</translation>
    </message>
    <message>
        <source>This order was already deducted earlier; nothing changed. The first deduction left %1 in stock.</source>
        <translation>该订单之前已扣减过；没有任何改变。第一次扣减后库存剩余 %1。</translation>
    </message>
    <message>
        <source>The server answered something the contract never returns (%1). Such a reply proves nothing about what the call did: it may have written.</source>
        <translation>服务器的应答是契约从不返回的内容（%1）。这样的应答证明不了该调用做了什么：它可能已写入。</translation>
    </message>
    <message>
        <source>The server answered something the contract never returns (%1), and the stock moved during the call (%2). Such a reply proves nothing about what the call did: it may have written.</source>
        <translation>服务器的应答是契约从不返回的内容（%1），并且调用期间库存发生了变化（%2）。这样的应答证明不了该调用做了什么：它可能已写入。</translation>
    </message>
    <message>
        <source>The call failed: %1.</source>
        <translation>调用失败：%1。</translation>
    </message>
    <message>
        <source>This is not one of the contract&apos;s checks before writing.</source>
        <translation>这不是契约在写入之前所做的检查之一。</translation>
    </message>
    <message>
        <source>The stock moved during the call (%1).</source>
        <translation>调用期间库存发生了变化（%1）。</translation>
    </message>
    <message>
        <source>A Lua error does not undo what ran before it, so this call may have written (for example deducted stock without writing the receipt).</source>
        <translation>Lua 错误不会撤销它之前已执行的操作，因此该调用可能已写入（例如扣减了库存却没有写入回执）。</translation>
    </message>
    <message>
        <source>A Lua error does not undo what ran before it, so this call may have written (for example deducted stock without writing all it meant to).</source>
        <translation>Lua 错误不会撤销它之前已执行的操作，因此该调用可能已写入（例如扣减了库存，却没有写完它本应写入的全部内容）。</translation>
    </message>
    <message>
        <source>Load the inventory library on this server (the Libraries tab, or inventory-cli functions load), then run again.</source>
        <translation>请在此服务器上加载库存函数库（“函数库”标签页，或 inventory-cli functions load），然后再运行。</translation>
    </message>
    <message>
        <source>This user lacks the ACL permission for the call; use a user that may run deductions.</source>
        <translation>该用户缺少执行此调用的 ACL 权限；请使用有权执行扣减的用户。</translation>
    </message>
    <message>
        <source>The stock key holds something that is not a whole number from 0 to 1,000,000,000 (or is not a string); correct it, then run again.</source>
        <translation>库存键中保存的不是 0 到 1,000,000,000 之间的整数（或不是字符串）；请更正后再运行。</translation>
    </message>
    <message>
        <source>This server is a replica; connect to the primary.</source>
        <translation>此服务器是副本；请连接到主节点。</translation>
    </message>
    <message>
        <source>Another client&apos;s script or function has been running too long, and the server answers nothing else meanwhile. Wait for it to end (or have it stopped with SCRIPT KILL or FUNCTION KILL), then run again: nothing was written.</source>
        <translation>另一个客户端的脚本或函数运行时间过长，服务器在此期间不应答任何其他请求。请等它结束（或用 SCRIPT KILL 或 FUNCTION KILL 让它停止），然后再运行：未写入任何内容。</translation>
    </message>
    <message>
        <source>The server is out of memory (maxmemory reached, and its policy evicts nothing): free memory or raise maxmemory, then run again: nothing was written.</source>
        <translation>服务器内存不足（已达到 maxmemory，且其策略不驱逐任何键）：请释放内存或调高 maxmemory，然后再运行：未写入任何内容。</translation>
    </message>
    <message>
        <source>Fix the cause above and run again; retrying is safe, nothing was written.</source>
        <translation>请修正上述原因后再运行；重试是安全的，未写入任何内容。</translation>
    </message>
    <message>
        <source>Correct what is named above, then run again: nothing was sent.</source>
        <translation>请更正上面指出的内容，然后再运行：未发送任何内容。</translation>
    </message>
    <message>
        <source>Make the audit log writable (free disk space, check the file&apos;s permissions), then run again: no write goes out unrecorded.</source>
        <translation>请让审计日志可写（释放磁盘空间，检查文件权限），然后再运行：任何写入都不会在未记录的情况下发出。</translation>
    </message>
    <message>
        <source>Put the SKU in braces in both key templates of this connection profile (for example stock:{&lt;sku&gt;}:available and idem:{&lt;sku&gt;}:&lt;order&gt;), so that both keys land in one slot.</source>
        <translation>请在此连接配置的两个键模板中都用花括号括住 SKU（例如 stock:{&lt;sku&gt;}:available 和 idem:{&lt;sku&gt;}:&lt;order&gt;），使两个键落在同一个槽中。</translation>
    </message>
    <message>
        <source>Connect to the primary named above and run it there; a replica&apos;s copy is overwritten by its primary.</source>
        <translation>请连接到上面指出的主节点并在那里运行；副本上的数据会被其主节点覆盖。</translation>
    </message>
    <message>
        <source>Run again once the server answers INFO (it may be busy with a long script, BUSY, or loading its data) and this user may run INFO: a write goes only to a server known to be a primary.</source>
        <translation>请在服务器应答 INFO（它可能正忙于一个长脚本、BUSY，或正在加载数据）且该用户有权执行 INFO 之后再运行：写入只会发往已知是主节点的服务器。</translation>
    </message>
    <message>
        <source>Unlock the session (File &gt; Unlock writes, type the profile name) if this write is meant for it, then run again: nothing was sent.</source>
        <translation>如果这次写入本就是针对该会话的，请解锁会话（文件 &gt; 解锁写入，输入配置名），然后再运行：未发送任何内容。</translation>
    </message>
    <message>
        <source>Reconnect, then run again: nothing was sent.</source>
        <translation>请重新连接，然后再运行：未发送任何内容。</translation>
    </message>
    <message>
        <source>Nothing to do. Retrying this order while its receipt lives returns Already applied.</source>
        <translation>无需操作。在回执有效期内重试该订单会返回“已处理过”。</translation>
    </message>
    <message>
        <source>Nothing to do. Do not run it again for the same order: the script would deduct again.</source>
        <translation>无需操作。不要为同一订单再运行一次：脚本会再扣减一次。</translation>
    </message>
    <message>
        <source>Nothing to do. Check the receipt to see when it expires: after that, the same order would deduct again.</source>
        <translation>无需操作。检查回执以了解它何时过期：过期之后，同一订单会再扣减一次。</translation>
    </message>
    <message>
        <source>Restock or lower the quantity. The same order id can be used again: nothing was recorded for it.</source>
        <translation>请补货或降低数量。同一订单号可以再次使用：没有为它记录任何内容。</translation>
    </message>
    <message>
        <source>Check the SKU and the profile&apos;s key templates, or create the stock key first.</source>
        <translation>请检查 SKU 和配置中的键模板，或先创建库存键。</translation>
    </message>
    <message>
        <source>Do not retry yet: check the stock and the receipt first. If the stock went down and there is no receipt, the deduction happened without one, and a retry would deduct again.</source>
        <translation>暂时不要重试：先检查库存和回执。如果库存减少了却没有回执，说明扣减已发生但没有回执，重试会再扣减一次。</translation>
    </message>
    <message>
        <source>Do not retry: check the stock first. The script may have deducted, and a retry may deduct twice.</source>
        <translation>不要重试：先检查库存。脚本可能已扣减，重试可能导致重复扣减。</translation>
    </message>
    <message>
        <source>Check the receipt: it tells whether the deduction happened. Retrying with the same order id is safe: it deducts at most once.</source>
        <translation>请检查回执：它能说明扣减是否已发生。用同一订单号重试是安全的：最多只扣减一次。</translation>
    </message>
    <message>
        <source>Check the stock before doing anything. Do not retry blindly: the script is not idempotent and a retry may deduct twice.</source>
        <translation>做任何操作之前先检查库存。不要盲目重试：脚本不是幂等的，重试可能导致重复扣减。</translation>
    </message>
    <message>
        <source>the remaining stock</source>
        <translation>剩余库存</translation>
    </message>
    <message>
        <source>the stock</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>the value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>the recorded remaining</source>
        <translation>记录的剩余量</translation>
    </message>
    <message>
        <source>the recorded quantity</source>
        <translation>记录的数量</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>%1, not the contract&apos;s {code, value} pair</source>
        <translation>%1，不是契约规定的 {code, value} 二元组</translation>
    </message>
    <message>
        <source>its code is %1, not an integer</source>
        <translation>它的代码是 %1，不是整数</translation>
    </message>
    <message>
        <source>code %1, which %2 never returns</source>
        <translation>代码 %1，而 %2 从不返回它</translation>
    </message>
    <message>
        <source>%1 is %2, not a number</source>
        <translation>%1是 %2，不是数字</translation>
    </message>
    <message>
        <source>%1 is below zero</source>
        <translation>%1小于零</translation>
    </message>
    <message>
        <source>%1 is %2, outside %3..%4</source>
        <translation>%1是 %2，超出 %3..%4</translation>
    </message>
    <message>
        <source>%1 is this call&apos;s own quantity</source>
        <translation>%1等于本次调用自己的数量</translation>
    </message>
    <message>
        <source>code %1, but %2</source>
        <translation>代码 %1，但%2</translation>
    </message>
</context>
<context>
    <name>inventory::DeductionRequest</name>
    <message>
        <source>enter the %1</source>
        <translation>请输入%1</translation>
    </message>
    <message>
        <source>the %1 starts or ends with a blank; remove it</source>
        <translation>%1的开头或结尾有空白；请删除它</translation>
    </message>
    <message>
        <source>the %1 contains a control character</source>
        <translation>%1中含有控制字符</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>order id</source>
        <translation>订单号</translation>
    </message>
    <message>
        <source>adjustment id</source>
        <translation>调整编号</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <translation>%1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>enter %1</source>
        <translation>请输入%1</translation>
    </message>
    <message>
        <source>digits only (no sign, spaces, separators or decimals): %1</source>
        <translation>只能输入数字（不带正负号、空格、分隔符或小数）：应为 %1</translation>
    </message>
    <message>
        <source>no leading zero: %1</source>
        <translation>不能以 0 开头：应为 %1</translation>
    </message>
    <message>
        <source>too long: %1</source>
        <translation>太长：应为 %1</translation>
    </message>
    <message>
        <source>out of range: %1</source>
        <translation>超出范围：应为 %1</translation>
    </message>
    <message>
        <source>the stock key (slot %1) and the receipt key (slot %2) hash to different cluster slots; check the key templates&apos; hash tags and braces in the SKU</source>
        <translation>库存键（槽 %1）和回执键（槽 %2）落在不同的集群槽中；请检查键模板的哈希标签和 SKU 中的花括号</translation>
    </message>
</context>
<context>
    <name>inventory::KeySchema</name>
    <message>
        <source>the release key template must contain &lt;sku&gt; and &lt;order&gt; exactly once each</source>
        <translation>释放键模板必须恰好各包含一次 &lt;sku&gt; 和 &lt;order&gt;</translation>
    </message>
    <message>
        <source>the adjustment key template must contain &lt;sku&gt; and &lt;id&gt; exactly once each</source>
        <translation>调整键模板必须恰好各包含一次 &lt;sku&gt; 和 &lt;id&gt;</translation>
    </message>
    <message>
        <source>in the release key template &lt;sku&gt; must come before &lt;order&gt;, with some text between them</source>
        <translation>释放键模板中 &lt;sku&gt; 必须在 &lt;order&gt; 之前，且两者之间要有文字</translation>
    </message>
    <message>
        <source>in the adjustment key template &lt;sku&gt; must come before &lt;id&gt;, with some text between them</source>
        <translation>调整键模板中 &lt;sku&gt; 必须在 &lt;id&gt; 之前，且两者之间要有文字</translation>
    </message>
    <message>
        <source>the release key template must start with text of its own before &lt;sku&gt; (&quot;%1&quot; starts another key family)</source>
        <translation>释放键模板必须在 &lt;sku&gt; 之前以自己的文字开头（“%1”是另一类键的开头）</translation>
    </message>
    <message>
        <source>the adjustment key template must start with text of its own before &lt;sku&gt; (&quot;%1&quot; starts another key family)</source>
        <translation>调整键模板必须在 &lt;sku&gt; 之前以自己的文字开头（“%1”是另一类键的开头）</translation>
    </message>
    <message>
        <source>the release key template must carry the stock key&apos;s hash tag {%1}, so that both keys of a repair share a cluster slot</source>
        <translation>释放键模板必须带有库存键的哈希标签 {%1}，使一次修复的两个键落在同一个集群槽中</translation>
    </message>
    <message>
        <source>the adjustment key template must carry the stock key&apos;s hash tag {%1}, so that both keys of a repair share a cluster slot</source>
        <translation>调整键模板必须带有库存键的哈希标签 {%1}，使一次修复的两个键落在同一个集群槽中</translation>
    </message>
    <message>
        <source>the stock key template must contain &lt;sku&gt; exactly once and no &lt;order&gt; (for example %1)</source>
        <translation>库存键模板必须恰好包含一次 &lt;sku&gt;，且不含 &lt;order&gt;（例如 %1）</translation>
    </message>
    <message>
        <source>the receipt key template must contain &lt;sku&gt; and &lt;order&gt; exactly once each (for example %1)</source>
        <translation>回执键模板必须恰好各包含一次 &lt;sku&gt; 和 &lt;order&gt;（例如 %1）</translation>
    </message>
    <message>
        <source>in the receipt key template &lt;sku&gt; must come before &lt;order&gt;, with some text between them</source>
        <translation>回执键模板中 &lt;sku&gt; 必须在 &lt;order&gt; 之前，且两者之间要有文字</translation>
    </message>
    <message>
        <source>the stock and receipt templates must differ</source>
        <translation>库存键模板和回执键模板不能相同</translation>
    </message>
    <message>
        <source>the SKU contains &apos;%1&apos;: a SKU is the hash tag of its keys, and a brace would move the tag&apos;s end, so two orders could share one receipt key</source>
        <translation>SKU 含有“%1”：SKU 是其键的哈希标签，花括号会移动标签的结尾，使两个订单可能共用一个回执键</translation>
    </message>
    <message>
        <source>the SKU contains &apos;%1&apos;, the character that ends a SKU in receipt keys (%2), so two orders could share one receipt key</source>
        <translation>SKU 含有“%1”，这是回执键（%2）中标志 SKU 结尾的字符，因此两个订单可能共用一个回执键</translation>
    </message>
</context>
<context>
    <name>inventory::PriorDeductions</name>
    <message>
        <source>%1, function mode, quantity %2 (this session): %3</source>
        <translation>%1，函数模式，数量 %2（本次会话）：%3</translation>
    </message>
    <message>
        <source>%1, script mode, quantity %2 (this session): %3</source>
        <translation>%1，脚本模式，数量 %2（本次会话）：%3</translation>
    </message>
    <message>
        <source>%1, function mode, quantity %2 (audit log): %3</source>
        <translation>%1，函数模式，数量 %2（审计日志）：%3</translation>
    </message>
    <message>
        <source>%1, script mode, quantity %2 (audit log): %3</source>
        <translation>%1，脚本模式，数量 %2（审计日志）：%3</translation>
    </message>
    <message>
        <source>Order %1 of SKU %2 may already have been deducted: an earlier call for it may have deducted. The script keeps no receipt: running it again deducts again.</source>
        <translation>SKU %2 的订单 %1 可能已经扣减过：之前针对它的一次调用可能已经扣减。脚本不保留回执：再次运行会再次扣减。</translation>
    </message>
    <message>
        <source>Order %1 of SKU %2 may already have been deducted: %3 earlier calls for it may have deducted. The script keeps no receipt: running it again deducts again.</source>
        <translation>SKU %2 的订单 %1 可能已经扣减过：之前针对它的 %3 次调用可能已经扣减。脚本不保留回执：再次运行会再次扣减。</translation>
    </message>
    <message>
        <source>Another quantity than before: order %1 of SKU %2 was already tried with quantity %3; this call asks for %4. inventory_deduct_v1 keeps no quantity in its receipt: while that receipt lives, this call returns Already applied and deducts nothing, not %4. A different quantity needs a new order id.</source>
        <translation>数量与之前不同：SKU %2 的订单 %1 之前已用数量 %3 尝试过；这次调用请求 %4。inventory_deduct_v1 的回执不记录数量：在该回执有效期内，这次调用会返回“已处理过”，什么也不扣减，而不是扣减 %4。不同的数量需要新的订单号。</translation>
    </message>
</context>
<context>
    <name>inventory::ReceiptForecast</name>
    <message>
        <source>read at %1 through %2</source>
        <translation>于 %1 通过 %2 读取</translation>
    </message>
    <message>
        <source>no TTL: it never expires</source>
        <translation>无 TTL：永不过期</translation>
    </message>
    <message>
        <source>expires in %1</source>
        <translation>%1 后过期</translation>
    </message>
    <message>
        <source>Could not read whether a receipt for order %1 exists (%2).</source>
        <translation>无法读取订单 %1 的回执是否存在（%2）。</translation>
    </message>
    <message>
        <source>No receipt for order %1 yet (%2).</source>
        <translation>订单 %1 尚无回执（%2）。</translation>
    </message>
    <message>
        <source>remaining %1 after it</source>
        <translation>扣减后剩余 %1</translation>
    </message>
    <message>
        <source>value &quot;%1&quot;, not a number: an anomaly</source>
        <translation>值为“%1”，不是数字：这是异常</translation>
    </message>
    <message>
        <source>A receipt for order %1 already exists (%2, %3; %4): %5 will answer &apos;already applied&apos; and deduct nothing.</source>
        <translation>订单 %1 的回执已存在（%2，%3；%4）：%5 将应答“已处理过”，不会扣减。</translation>
    </message>
    <message>
        <source>A v2 receipt (a hash) for order %1 already exists (remaining %2, %3; %4): %5 will refuse it with WRONGTYPE and deduct nothing.</source>
        <translation>订单 %1 的 v2 回执（哈希）已存在（剩余 %2，%3；%4）：%5 将以 WRONGTYPE 拒绝它，不会扣减。</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
</context>
<context>
    <name>inventory::ReceiptStatus</name>
    <message>
        <source>direct read (TYPE, TTL, GET/HGETALL)</source>
        <translation>直接读取（TYPE、TTL、GET/HGETALL）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 d %2 h %3 min</source>
        <translation>%1 天 %2 小时 %3 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>no TTL (never expires)</source>
        <translation>无 TTL（永不过期）</translation>
    </message>
    <message>
        <source>%1 (%2 s)</source>
        <translation>%1（%2 秒）</translation>
    </message>
    <message>
        <source>The check failed (%1); it says nothing about the deduction. Try again when the server answers.</source>
        <translation>检查失败（%1）；它不能说明扣减的任何情况。请在服务器应答后再试。</translation>
    </message>
    <message>
        <source>No receipt found: either this order&apos;s deduction never ran, or its receipt expired, was evicted or was lost in a restart or failover. A retry with the same order id would deduct now: check the stock and the audit log first.</source>
        <translation>未找到回执：要么该订单的扣减从未执行，要么它的回执已过期、被驱逐，或在重启或故障切换中丢失。现在用同一订单号重试会扣减：请先检查库存和审计日志。</translation>
    </message>
    <message>
        <source>The deduction happened: the receipt exists</source>
        <translation>扣减已发生：回执存在</translation>
    </message>
    <message>
        <source>, recorded remaining %1</source>
        <translation>，记录的剩余量 %1</translation>
    </message>
    <message>
        <source>, value &quot;%1&quot; (not a number: an anomaly)</source>
        <translation>，值为“%1”（不是数字：这是异常）</translation>
    </message>
    <message>
        <source>, quantity %1</source>
        <translation>，数量 %1</translation>
    </message>
    <message>
        <source>.</source>
        <comment>ends the sentence &apos;The deduction happened: ...&apos;</comment>
        <translation>。</translation>
    </message>
    <message>
        <source>It has no TTL, so it never expires (the function always sets one: someone changed this key); a retry through inventory_deduct_v2 returns Already applied (inventory_deduct_v1 refuses a hash receipt: WRONGTYPE) while the receipt lasts (eviction, a DEL, or a restart or failover that loses it ends that sooner).</source>
        <translation>它没有 TTL，因此永不过期（函数总会设置 TTL：有人改动过这个键）；在回执存在期间，通过 inventory_deduct_v2 重试会返回“已处理过”（inventory_deduct_v1 拒绝哈希回执：WRONGTYPE）（驱逐、DEL，或丢失它的重启或故障切换会让这一保护提前结束）。</translation>
    </message>
    <message>
        <source>It has no TTL, so it never expires (the function always sets one: someone changed this key); a retry of this order returns Already applied while the receipt lasts (eviction, a DEL, or a restart or failover that loses it ends that sooner).</source>
        <translation>它没有 TTL，因此永不过期（函数总会设置 TTL：有人改动过这个键）；在回执存在期间，重试该订单会返回“已处理过”（驱逐、DEL，或丢失它的重启或故障切换会让这一保护提前结束）。</translation>
    </message>
    <message>
        <source>It expires in %1; until then a retry through inventory_deduct_v2 returns Already applied (inventory_deduct_v1 refuses a hash receipt: WRONGTYPE) while the receipt lasts (eviction, a DEL, or a restart or failover that loses it ends that sooner); after that it would deduct again.</source>
        <translation>它将在 %1 过期；在此之前，只要回执还在，通过 inventory_deduct_v2 重试会返回“已处理过”（inventory_deduct_v1 拒绝哈希回执：WRONGTYPE）（驱逐、DEL，或丢失它的重启或故障切换会让这一保护提前结束）；过期之后会再扣减一次。</translation>
    </message>
    <message>
        <source>It expires in %1; until then a retry of this order returns Already applied while the receipt lasts (eviction, a DEL, or a restart or failover that loses it ends that sooner); after that it would deduct again.</source>
        <translation>它将在 %1 过期；在此之前，只要回执还在，重试该订单会返回“已处理过”（驱逐、DEL，或丢失它的重启或故障切换会让这一保护提前结束）；过期之后会再扣减一次。</translation>
    </message>
    <message>
        <source>%1, at %2 UTC</source>
        <translation>%1后，即 UTC %2</translation>
    </message>
    <message>
        <source>The key at this order&apos;s receipt name is a hash without a valid &apos;remaining&apos; and &apos;quantity&apos;, not a receipt: an anomaly, so whether the order was deducted cannot be read from it. A retry deducts nothing and fails: inventory_deduct_v1 answers WRONGTYPE, inventory_deduct_v2 &apos;ERR invalid receipt&apos;.</source>
        <translation>该订单回执名下的键是一个没有有效 remaining 和 quantity 字段的哈希，而不是回执：这是异常，因此无法从中读出该订单是否已扣减。重试不会扣减并且会失败：inventory_deduct_v1 应答 WRONGTYPE，inventory_deduct_v2 应答“ERR invalid receipt”。</translation>
    </message>
    <message>
        <source>The key at this order&apos;s receipt name is a %1, not a receipt: an anomaly, so whether the order was deducted cannot be read from it. A retry deducts nothing and fails: inventory_deduct_v1 answers WRONGTYPE, inventory_deduct_v2 &apos;ERR invalid receipt&apos;.</source>
        <translation>该订单回执名下的键是 %1 类型，而不是回执：这是异常，因此无法从中读出该订单是否已扣减。重试不会扣减并且会失败：inventory_deduct_v1 应答 WRONGTYPE，inventory_deduct_v2 应答“ERR invalid receipt”。</translation>
    </message>
    <message>
        <source>It has no TTL: retries keep failing until someone repairs or deletes the key (check the stock and the audit log first).</source>
        <translation>它没有 TTL：在有人修复或删除该键之前，重试会一直失败（请先检查库存和审计日志）。</translation>
    </message>
    <message>
        <source>It expires in %1; after that a retry would deduct again, unless someone repairs or deletes the key first.</source>
        <translation>它将在 %1 过期；过期之后重试会再扣减一次，除非有人先修复或删除该键。</translation>
    </message>
    <message>
        <source>inventory_receipt_v1 answered %1 outside its contract ({1, remaining, ttl, quantity} or {0, 0, -2, -1}): an anomaly</source>
        <translation>inventory_receipt_v1 应答为%1，超出了它的契约（{1, remaining, ttl, quantity} 或 {0, 0, -2, -1}）：这是异常</translation>
    </message>
    <message>
        <source>GET answered %1, not a value (an anomaly)</source>
        <translation>GET 应答为%1，而不是值（异常）</translation>
    </message>
    <message>
        <source>HGETALL answered %1, not a receipt&apos;s fields (the key changed while it was read, or an anomaly)</source>
        <translation>HGETALL 应答为%1，而不是回执的字段（读取期间该键被改动，或是异常）</translation>
    </message>
    <message>
        <source>incomplete reply</source>
        <translation>应答不完整</translation>
    </message>
</context>
<context>
    <name>inventory::RepairOutcome</name>
    <message>
        <source>the stock is %1</source>
        <translation>库存为 %1</translation>
    </message>
    <message>
        <source>the stock key is missing now</source>
        <translation>库存键现在不存在</translation>
    </message>
    <message>
        <source>Released: order %1 gave %2 back to SKU %3; the stock is now %4.</source>
        <translation>已释放：订单 %1 向 SKU %3 退回了 %2；现在库存为 %4。</translation>
    </message>
    <message>
        <source>Adjusted: SKU %1 changed by %2 under adjustment %3; the stock is now %4.</source>
        <translation>已调整：SKU %1 在调整 %3 下变动了 %2；现在库存为 %4。</translation>
    </message>
    <message>
        <source>Already released: the release of order %1 on SKU %2 was applied before (its key exists), so nothing changed; %3.</source>
        <translation>已经释放过：订单 %1 在 SKU %2 上的释放之前已执行（它的键存在），因此没有任何改变；%3。</translation>
    </message>
    <message>
        <source>Already applied: adjustment %1 on SKU %2 was applied before (its key exists), so nothing changed; %3.</source>
        <translation>已经调整过：SKU %2 上的调整 %1 之前已执行（它的键存在），因此没有任何改变；%3。</translation>
    </message>
    <message>
        <source>Not released: order %1 has no receipt on SKU %2, so no deduction is proven, and nothing was written.</source>
        <translation>未释放：订单 %1 在 SKU %2 上没有回执，因此无法证明发生过扣减，未写入任何内容。</translation>
    </message>
    <message>
        <source>Not released: the receipt of order %1 records a deduction of %2, not %3; nothing was written.</source>
        <translation>未释放：订单 %1 的回执记录的扣减数量是 %2，而不是 %3；未写入任何内容。</translation>
    </message>
    <message>
        <source>Not adjusted: the stock of SKU %1 is %2, and %3 would take it out of 0..1,000,000,000; nothing was written.</source>
        <translation>未调整：SKU %1 的库存为 %2，调整 %3 会使它超出 0..1,000,000,000；未写入任何内容。</translation>
    </message>
    <message>
        <source>Not released: the stock key %1 does not exist, and a repair never creates one; nothing was written.</source>
        <translation>未释放：库存键 %1 不存在，而修复从不创建库存键；未写入任何内容。</translation>
    </message>
    <message>
        <source>Not adjusted: the stock key %1 does not exist, and a repair never creates one; nothing was written.</source>
        <translation>未调整：库存键 %1 不存在，而修复从不创建库存键；未写入任何内容。</translation>
    </message>
    <message>
        <source>Not released: the server refused the call before any write (%1).</source>
        <translation>未释放：服务器在任何写入之前拒绝了该调用（%1）。</translation>
    </message>
    <message>
        <source>Not adjusted: the server refused the call before any write (%1).</source>
        <translation>未调整：服务器在任何写入之前拒绝了该调用（%1）。</translation>
    </message>
    <message>
        <source>May have written: the server answered with an error that can come after a write (%1); it was not resent: read its key before doing anything else.</source>
        <translation>可能已写入：服务器应答的错误可能发生在写入之后（%1）；该调用没有重发：做任何其他操作之前请先读取它的键。</translation>
    </message>
    <message>
        <source>May have written: the reply could not be read (%1); it was not resent: read its key before doing anything else.</source>
        <translation>可能已写入：无法读取应答（%1）；该调用没有重发：做任何其他操作之前请先读取它的键。</translation>
    </message>
    <message>
        <source>Outcome unknown: the release of order %1 on SKU %2 was sent but no reply came (%3); it was not resent.</source>
        <translation>结果未知：订单 %1 在 SKU %2 上的释放已发送，但没有收到应答（%3）；该调用没有重发。</translation>
    </message>
    <message>
        <source>Outcome unknown: adjustment %1 on SKU %2 was sent but no reply came (%3); it was not resent.</source>
        <translation>结果未知：SKU %2 上的调整 %1 已发送，但没有收到应答（%3）；该调用没有重发。</translation>
    </message>
    <message>
        <source>Nothing was sent: %1.</source>
        <translation>未发送任何内容：%1。</translation>
    </message>
    <message>
        <source>the stock after</source>
        <translation>之后的库存</translation>
    </message>
    <message>
        <source>the current stock</source>
        <translation>当前库存</translation>
    </message>
    <message>
        <source>the stock</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>the value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>the recorded quantity</source>
        <translation>记录的数量</translation>
    </message>
    <message>
        <source>%1, not the contract&apos;s {code, value} pair</source>
        <translation>%1，而不是契约规定的 {code, value} 对</translation>
    </message>
    <message>
        <source>its code and value are %1 and %2, not two integers</source>
        <translation>它的代码和值是 %1 和 %2，而不是两个整数</translation>
    </message>
    <message>
        <source>code %1, which %2 never returns</source>
        <translation>代码 %1，而 %2 从不返回这个代码</translation>
    </message>
    <message>
        <source>code %1, but %2 is %3, outside %4..%5</source>
        <translation>代码 %1，但%2为 %3，超出 %4..%5</translation>
    </message>
    <message>
        <source>code %1, but %2 is this call&apos;s own</source>
        <translation>代码 %1，但%2就是本次调用自己的</translation>
    </message>
</context>
<context>
    <name>inventory::RepairRequest</name>
    <message>
        <source>%1 (a leading &apos;-&apos; for a decrease, nothing else)</source>
        <translation>%1（减少时在前面加“-”，不能有其他符号）</translation>
    </message>
    <message>
        <source>say why the stock is corrected (it is recorded in the audit log)</source>
        <translation>请说明为什么要更正库存（原因会记录在审计日志中）</translation>
    </message>
    <message>
        <source>%1 (slot %2) and the stock key (slot %3) hash to different cluster slots; check the key templates&apos; hash tags</source>
        <translation>%1（槽 %2）和库存键（槽 %3）落在不同的集群槽中；请检查键模板的哈希标签</translation>
    </message>
</context>
<context>
    <name>inventory::RepairSettlement</name>
    <message>
        <source>The release key records a quantity of %1, not the %2 asked for: order %3 was released with %1 before, and %2 was not released.</source>
        <translation>释放键记录的数量是 %1，而不是请求的 %2：订单 %3 之前已按 %1 释放，%2 没有被释放。</translation>
    </message>
    <message>
        <source>The adjustment key records a delta of %1, not the %2 asked for: this correction was not applied; to apply it, give it an adjustment id of its own.</source>
        <translation>调整键记录的变化量是 %1，而不是请求的 %2：本次修正没有执行；要执行它，请为它指定一个自己的调整 ID。</translation>
    </message>
    <message>
        <source>not proven: the release key %1 could not be read (%2); read it again before doing anything else</source>
        <translation>未证实：无法读取释放键 %1（%2）；在做任何其他操作之前请再次读取它</translation>
    </message>
    <message>
        <source>not proven: the adjustment key %1 could not be read (%2); read it again before doing anything else</source>
        <translation>未证实：无法读取调整键 %1（%2）；在做任何其他操作之前请再次读取它</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <source>not proven: the release key %1 does not exist: the call may not have run, or its key expired or was evicted; sending the same release again is answered from that key if it ran and the key still lives</source>
        <translation>未证实：释放键 %1 不存在：调用可能没有执行，或者该键已过期或被驱逐；如果调用已执行且该键仍在，再次发送同一释放会由该键应答</translation>
    </message>
    <message>
        <source>not proven: the adjustment key %1 does not exist: the call may not have run, or its key expired or was evicted; sending the same adjust again is answered from that key if it ran and the key still lives</source>
        <translation>未证实：调整键 %1 不存在：调用可能没有执行，或者该键已过期或被驱逐；如果调用已执行且该键仍在，再次发送同一调整会由该键应答</translation>
    </message>
    <message>
        <source>not proven: the release key %1 holds %2, which no release writes</source>
        <translation>未证实：释放键 %1 的值是 %2，任何释放都不会写入这样的值</translation>
    </message>
    <message>
        <source>not proven: the adjustment key %1 holds %2, which no adjust writes</source>
        <translation>未证实：调整键 %1 的值是 %2，任何调整都不会写入这样的值</translation>
    </message>
    <message>
        <source>not this release: the release key %1 holds %2, written by a release of %3 under the same key; this call, if it ran, was answered from it and wrote nothing, and sending it again changes nothing: find out which amount is owed</source>
        <translation>不是本次释放：释放键 %1 的值是 %2，由同一键下一次数量为 %3 的释放写入；本次调用如果执行过，也只是由该键应答，没有写入任何内容，再次发送不会改变任何东西：请查明应退回的数量</translation>
    </message>
    <message>
        <source>not this adjust: the adjustment key %1 holds %2, written by an adjust of %3 under the same key; this call, if it ran, was answered from it and wrote nothing, and sending it again changes nothing: find out which amount is owed</source>
        <translation>不是本次调整：调整键 %1 的值是 %2，由同一键下一次变化量为 %3 的调整写入；本次调用如果执行过，也只是由该键应答，没有写入任何内容，再次发送不会改变任何东西：请查明应调整的数量</translation>
    </message>
    <message>
        <source>released: the release key %1 exists (%2), so this release was applied, by this call or an earlier one with the same key; do not send it again</source>
        <translation>已释放：释放键 %1 存在（%2），因此该释放已执行，由本次调用或之前使用同一键的调用执行；请勿再次发送</translation>
    </message>
    <message>
        <source>adjusted: the adjustment key %1 exists (%2), so this adjust was applied, by this call or an earlier one with the same key; do not send it again</source>
        <translation>已调整：调整键 %1 存在（%2），因此该调整已执行，由本次调用或之前使用同一键的调用执行；请勿再次发送</translation>
    </message>
    <message>
        <source>TTL answered %1, not a number</source>
        <translation>TTL 应答为 %1，不是数字</translation>
    </message>
</context>
<context>
    <name>inventory::RetryProtection</name>
    <message>
        <source>But the receipt read back just after the call is missing (evicted under maxmemory, expired or deleted): the retry protection is already gone, and a retry of this order now would deduct again.</source>
        <translation>但调用后立即回读的回执不存在（因 maxmemory 被驱逐、已过期或被删除）：重试保护已经失效，现在重试该订单会再扣减一次。</translation>
    </message>
    <message>
        <source>Do not retry this order: without its receipt a retry deducts again. Record that it was deducted in the order system, and check the server&apos;s maxmemory-policy (allkeys-* and volatile-* evict receipts).</source>
        <translation>不要重试该订单：没有回执，重试会再扣减一次。请在订单系统中记录它已扣减，并检查服务器的 maxmemory-policy（allkeys-* 和 volatile-* 会驱逐回执）。</translation>
    </message>
</context>
<context>
    <name>inventory::WriteTargetRole</name>
    <message>
        <source>refused: this server is a replica (of %1); a write here would be lost at its next resync. Connect to the primary %1</source>
        <translation>已拒绝：此服务器是副本，其主节点为 %1；在这里写入会在下次重新同步时丢失。请连接到该主节点 %1</translation>
    </message>
    <message>
        <source>a primary it does not name</source>
        <translation>（它未指明）</translation>
    </message>
    <message>
        <source>refused: could not read the server&apos;s role (%1), so it is not known to be a primary</source>
        <translation>已拒绝：无法读取服务器的角色（%1），因此不能确认它是主节点</translation>
    </message>
    <message>
        <source>INFO replication: %1</source>
        <translation>INFO replication：%1</translation>
    </message>
    <message>
        <source>INFO replication answered %1, not its text</source>
        <translation>INFO replication 应答为 %1，而不是它的文本</translation>
    </message>
    <message>
        <source>role &quot;%1&quot; is neither master nor slave</source>
        <translation>角色“%1”既不是 master 也不是 slave</translation>
    </message>
    <message>
        <source>INFO replication has no role line</source>
        <translation>INFO replication 中没有 role 行</translation>
    </message>
</context>
<context>
    <name>lab::BlockingLane</name>
    <message>
        <source>could not look up %1 (%2): the name server could not be reached</source>
        <translation>无法查询 %1（%2）：无法连接域名服务器</translation>
    </message>
    <message>
        <source>could not resolve %1: %2</source>
        <translation>无法解析 %1：%2</translation>
    </message>
    <message>
        <source>could not connect to %1</source>
        <translation>无法连接到 %1</translation>
    </message>
    <message>
        <source>%1 refused: %2</source>
        <translation>%1 被拒绝：%2</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>the connection was lost while sending</source>
        <translation>发送时连接断开</translation>
    </message>
    <message>
        <source>protocol error: %1</source>
        <translation>协议错误：%1</translation>
    </message>
    <message>
        <source>no reply within %1 ms</source>
        <translation>%1 毫秒内没有应答</translation>
    </message>
    <message>
        <source>no reply within the timeout</source>
        <translation>超时内没有应答</translation>
    </message>
    <message>
        <source>the connection was closed</source>
        <translation>连接已关闭</translation>
    </message>
</context>
<context>
    <name>lab::LabAccess</name>
    <message>
        <source>the lab runs storms of writes, so it runs only on servers labelled local or test (and the demo); this one is labelled %1. Run it against a throwaway test server (label it test, or use the demo)</source>
        <translation>实验室会发起大量写入，因此只在标记为 local 或 test 的服务器（以及演示）上运行；此服务器标记为 %1。请在可丢弃的测试服务器上运行（将其标记为 test，或使用演示）</translation>
    </message>
</context>
<context>
    <name>lab::LabPlacement</name>
    <message>
        <source>the cluster at %1 announced no primary serving a slot</source>
        <translation>%1 处的集群没有通告负责某个槽的主节点</translation>
    </message>
    <message>
        <source>could not connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>could not read the cluster&apos;s topology from %1: %2</source>
        <translation>无法从 %1 读取集群拓扑：%2</translation>
    </message>
    <message>
        <source>no answer in time</source>
        <translation>未及时应答</translation>
    </message>
    <message>
        <source>%1 (announced as %2)</source>
        <translation>%1（通告为 %2）</translation>
    </message>
</context>
<context>
    <name>lab::LabRun</name>
    <message>
        <source>could not connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>could not read INFO cluster: %1</source>
        <translation>无法读取 INFO cluster：%1</translation>
    </message>
    <message>
        <source>this server is a cluster node (cluster_enabled:1) but refused CLUSTER SHARDS and CLUSTER SLOTS, so the lab cannot tell which primary holds its keys: let this user run them (ACL +cluster|shards +cluster|slots) and run the lab again</source>
        <translation>该服务器是集群节点（cluster_enabled:1），但拒绝了 CLUSTER SHARDS 和 CLUSTER SLOTS，因此实验室无法确定哪个主节点持有它的键：请允许该用户运行这些命令（ACL +cluster|shards +cluster|slots），然后再次运行实验室</translation>
    </message>
    <message>
        <source>SCRIPT LOAD of stock_decrement.lua was refused on %1</source>
        <translation>%1 拒绝了 stock_decrement.lua 的 SCRIPT LOAD</translation>
    </message>
    <message>
        <source>%1 is not loaded on %2 (load functions/inventory_lib_v1.lua from the Libraries tab or with inventory-cli functions, on every primary)</source>
        <translation>%2 上没有加载 %1（请在每个主节点上，从“函数库”页或用 inventory-cli functions 加载 functions/inventory_lib_v1.lua）</translation>
    </message>
    <message>
        <source>%1 is not loaded on %2 (load functions/inventory_lib_v1.lua from the Libraries tab or with inventory-cli functions)</source>
        <translation>%2 上没有加载 %1（请从“函数库”页或用 inventory-cli functions 加载 functions/inventory_lib_v1.lua）</translation>
    </message>
    <message>
        <source>cancelled before it started</source>
        <translation>开始前已取消</translation>
    </message>
    <message>
        <source>no primary of the cluster serves slot %1 of %2; the cluster is not fully covered</source>
        <translation>集群中没有主节点负责 %2 的槽 %1；集群未完全覆盖</translation>
    </message>
    <message>
        <source>the key schema puts the stock key and the receipts in different cluster slots, so FCALL would be refused (CROSSSLOT): keep {&lt;sku&gt;} in both templates</source>
        <translation>键模式把库存键和回执放在不同的集群槽中，FCALL 会被拒绝（CROSSSLOT）：请在两个模板中都保留 {&lt;sku&gt;}</translation>
    </message>
    <message>
        <source>%1 already exists; run the lab again</source>
        <translation>%1 已存在；请再次运行实验室</translation>
    </message>
    <message>
        <source>could not create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>the final stock is not a number: %1</source>
        <translation>最终库存不是数字：%1</translation>
    </message>
    <message>
        <source>could not read the final stock: %1</source>
        <translation>无法读取最终库存：%1</translation>
    </message>
    <message>
        <source>could not list the lab&apos;s receipts %1: %2</source>
        <translation>无法列出实验室的回执 %1：%2</translation>
    </message>
    <message>
        <source>unexpected SCAN reply</source>
        <translation>意外的 SCAN 应答</translation>
    </message>
    <message>
        <source>could not remove receipts: %1</source>
        <translation>无法删除回执：%1</translation>
    </message>
    <message>
        <source>could not remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
</context>
<context>
    <name>lab::LabSettings</name>
    <message>
        <source>Naive GET, compare, DECRBY</source>
        <translation>朴素方式：GET、比较、DECRBY</translation>
    </message>
    <message>
        <source>Script (EVALSHA stock_decrement.lua)</source>
        <translation>脚本（EVALSHA stock_decrement.lua）</translation>
    </message>
    <message>
        <source>Function v1 (FCALL inventory_deduct_v1)</source>
        <translation>函数 v1（FCALL inventory_deduct_v1）</translation>
    </message>
    <message>
        <source>Function v2 (FCALL inventory_deduct_v2)</source>
        <translation>函数 v2（FCALL inventory_deduct_v2）</translation>
    </message>
    <message>
        <source>%1: give %2 to %3, not %4</source>
        <translation>%1：请给出 %2 到 %3 之间的值，而不是 %4</translation>
    </message>
    <message>
        <source>stock</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>connections</source>
        <translation>连接数</translation>
    </message>
    <message>
        <source>attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>流水线深度</translation>
    </message>
    <message>
        <source>retry share: give a fraction from 0 to 1 (0.1 = one attempt in ten reuses an earlier order id), not %1</source>
        <translation>重试比例：请给出 0 到 1 之间的小数（0.1 = 每十次尝试中有一次重用之前的订单号），而不是 %1</translation>
    </message>
    <message>
        <source>pause (ms)</source>
        <translation>暂停（毫秒）</translation>
    </message>
    <message>
        <source>client timeout (ms)</source>
        <translation>客户端超时（毫秒）</translation>
    </message>
    <message>
        <source>client timeout: make it shorter than the pause (%1 ms), or no reply comes too late</source>
        <translation>客户端超时：请设得比暂停（%1 毫秒）短，否则不会有应答来得太晚</translation>
    </message>
    <message>
        <source>strategies: choose at least one</source>
        <translation>策略：请至少选择一个</translation>
    </message>
</context>
<context>
    <name>lab::StormRunner</name>
    <message>
        <source>could not open the storm&apos;s connections: %1</source>
        <translation>无法打开压测的连接：%1</translation>
    </message>
    <message>
        <source>could not open the lab&apos;s control connection: %1</source>
        <translation>无法打开实验室的控制连接：%1</translation>
    </message>
    <message>
        <source>CLIENT PAUSE %1 WRITE after %2 of %3 attempts</source>
        <translation>在 %3 次尝试中的第 %2 次之后执行 CLIENT PAUSE %1 WRITE</translation>
    </message>
    <message>
        <source>CLIENT PAUSE %1 WRITE after %2 of %3 attempts, client timeout %4 ms</source>
        <translation>在 %3 次尝试中的第 %2 次之后执行 CLIENT PAUSE %1 WRITE，客户端超时 %4 毫秒</translation>
    </message>
    <message>
        <source>%1 (refused: %2)</source>
        <translation>%1（被拒绝：%2）</translation>
    </message>
</context>
<context>
    <name>lab::StrategyResult</name>
    <message>
        <source>not run: %1</source>
        <translation>未运行：%1</translation>
    </message>
    <message>
        <source>broke off: %1</source>
        <translation>中途中断：%1</translation>
    </message>
    <message>
        <source>cancelled after %1 attempts</source>
        <translation>%1 次尝试后已取消</translation>
    </message>
    <message>
        <source>final stock not read</source>
        <translation>未读取最终库存</translation>
    </message>
    <message>
        <source>oversold %1 unit</source>
        <translation>超卖 %1 件</translation>
    </message>
    <message>
        <source>oversold %1 units</source>
        <translation>超卖 %1 件</translation>
    </message>
    <message>
        <source>no oversell this run (the naive race shows once the stock runs out with attempts left: give more attempts than units; it is not safe)</source>
        <translation>本次运行没有超卖（朴素方式的竞争只在库存耗尽而尝试尚未用完时才显现：请让尝试次数多于库存件数；它并不安全）</translation>
    </message>
    <message>
        <source>no oversell</source>
        <translation>没有超卖</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the parts of a verdict</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>%1 double deduction from retries</source>
        <translation>重试造成 %1 次重复扣减</translation>
    </message>
    <message>
        <source>%1 double deductions from retries</source>
        <translation>重试造成 %1 次重复扣减</translation>
    </message>
    <message>
        <source>%1 retry answered from receipts</source>
        <translation>%1 次重试由回执应答</translation>
    </message>
    <message>
        <source>%1 retries answered from receipts</source>
        <translation>%1 次重试由回执应答</translation>
    </message>
    <message>
        <source>%1 order still unknown</source>
        <translation>%1 个订单结果仍未知</translation>
    </message>
    <message>
        <source>%1 orders still unknown</source>
        <translation>%1 个订单结果仍未知</translation>
    </message>
    <message>
        <source>%1 error reply (%2)</source>
        <translation>%1 个错误应答（%2）</translation>
    </message>
    <message>
        <source>%1 error replies (%2)</source>
        <translation>%1 个错误应答（%2）</translation>
    </message>
</context>
<context>
    <name>ledger::FileLedger</name>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1: the file is empty (it needs a header line: order_id,sku,quantity,state)</source>
        <translation>%1：文件为空（需要一行表头：order_id,sku,quantity,state）</translation>
    </message>
    <message>
        <source>%1: the header has no column &quot;%2&quot; (it has: %3; --ledger-columns maps others)</source>
        <translation>%1：表头中没有列“%2”（现有列：%3；可用 --ledger-columns 映射其他列）</translation>
    </message>
    <message>
        <source>%1: the header names the column &quot;%2&quot; twice</source>
        <translation>%1：表头中列“%2”出现了两次</translation>
    </message>
    <message>
        <source>line %1: %2 fields where the header has at least %3</source>
        <translation>第 %1 行：只有 %2 个字段，而表头至少有 %3 个</translation>
    </message>
    <message>
        <source>line %1: longer than %2 bytes</source>
        <translation>第 %1 行：超过 %2 字节</translation>
    </message>
    <message>
        <source>line %1: not a JSON object (%2)</source>
        <translation>第 %1 行：不是 JSON 对象（%2）</translation>
    </message>
    <message>
        <source>line %1: not a JSON object (another JSON value)</source>
        <translation>第 %1 行：不是 JSON 对象（是其他 JSON 值）</translation>
    </message>
    <message>
        <source>line %1: &quot;%2&quot; is neither a string nor a whole number</source>
        <translation>第 %1 行：“%2”既不是字符串也不是整数</translation>
    </message>
    <message>
        <source>line %1: &quot;%2&quot; is missing</source>
        <translation>第 %1 行：缺少“%2”</translation>
    </message>
    <message>
        <source>line %1: &quot;%2&quot; is missing or not a time</source>
        <translation>第 %1 行：“%2”缺失或不是时间</translation>
    </message>
</context>
<context>
    <name>ledger::LedgerReader</name>
    <message>
        <source>could not read the ledger %1: %2 after %3 rows</source>
        <translation>无法读取订单账 %1：%2（已读 %3 行）</translation>
    </message>
</context>
<context>
    <name>ledger::LedgerRow</name>
    <message>
        <source>the order id is empty</source>
        <translation>订单号为空</translation>
    </message>
    <message>
        <source>the order id is longer than %1 bytes</source>
        <translation>订单号超过 %1 字节</translation>
    </message>
    <message>
        <source>the SKU is empty</source>
        <translation>SKU 为空</translation>
    </message>
    <message>
        <source>the SKU is longer than %1 bytes</source>
        <translation>SKU 超过 %1 字节</translation>
    </message>
    <message>
        <source>the quantity %1 is not a whole number from 1 to %2</source>
        <translation>数量 %1 不是 1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>the state %1 is not one this ledger maps (%2; --ledger-states maps others)</source>
        <translation>状态 %1 不在此订单账的映射中（%2；可用 --ledger-states 映射其他状态）</translation>
    </message>
    <message>
        <source>the time %1 is neither ISO 8601 with a zone nor whole seconds since 1970</source>
        <translation>时间 %1 既不是带时区的 ISO 8601，也不是自 1970 年起的整秒数</translation>
    </message>
    <message>
        <source>column mapping &quot;%1&quot;: give field=column, the fields being order_id, sku, quantity, state and time</source>
        <translation>列映射“%1”：请写成 字段=列，字段为 order_id、sku、quantity、state 和 time</translation>
    </message>
    <message>
        <source>state mapping &quot;%1&quot;: give ledger_state=state, the states being committed, cancelled, failed and pending</source>
        <translation>状态映射“%1”：请写成 订单账状态=状态，状态为 committed、cancelled、failed 和 pending</translation>
    </message>
</context>
<context>
    <name>ledger::LedgerSpec</name>
    <message>
        <source>a SQLite ledger is sqlite:///absolute/path/file.db (three slashes)</source>
        <translation>SQLite 订单账的写法是 sqlite:///absolute/path/file.db（三个斜杠）</translation>
    </message>
    <message>
        <source>the ledger URL holds a password: give it with --ledger-password-stdin, never in the URL</source>
        <translation>订单账 URL 中含有密码：请用 --ledger-password-stdin 提供，绝不能写在 URL 中</translation>
    </message>
    <message>
        <source>a PostgreSQL ledger is postgresql://user@host[:port]/database</source>
        <translation>PostgreSQL 订单账的写法是 postgresql://user@host[:port]/database</translation>
    </message>
    <message>
        <source>a ledger is a .csv or .jsonl file, sqlite:///path or postgresql://user@host:port/db</source>
        <translation>订单账是 .csv 或 .jsonl 文件、sqlite:///path 或 postgresql://user@host:port/db</translation>
    </message>
    <message>
        <source>%1: a ledger file ends in .csv or .jsonl (.ndjson); a database is sqlite:///path or postgresql://user@host:port/db</source>
        <translation>%1：订单账文件以 .csv 或 .jsonl（.ndjson）结尾；数据库写作 sqlite:///path 或 postgresql://user@host:port/db</translation>
    </message>
    <message>
        <source>a query or a table applies to a SQLite or PostgreSQL ledger, not to a file</source>
        <translation>查询或表只适用于 SQLite 或 PostgreSQL 订单账，不适用于文件</translation>
    </message>
    <message>
        <source>give a query or a table, not both</source>
        <translation>请给出查询或表，不要同时给出两者</translation>
    </message>
</context>
<context>
    <name>ledger::SqlLedger</name>
    <message>
        <source>row %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>cannot read %1: Qt&apos;s %2 driver is not installed (%3)</source>
        <translation>无法读取 %1：未安装 Qt 的 %2 驱动（%3）</translation>
    </message>
    <message>
        <source>cannot open the ledger %1: %2</source>
        <translation>无法打开订单账 %1：%2</translation>
    </message>
    <message>
        <source>cannot open the ledger %1 read-only: %2</source>
        <translation>无法以只读方式打开订单账 %1：%2</translation>
    </message>
    <message>
        <source>cannot open the ledger %1 read-only: the server says transaction_read_only is &quot;%2&quot;; nothing was read</source>
        <translation>无法以只读方式打开订单账 %1：服务器报告 transaction_read_only 为“%2”；未读取任何内容</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>the ledger query was refused: the session is read-only (this console never writes to a ledger; the server said: %1)</source>
        <translation>订单账查询被拒绝：会话为只读（本控制台从不写入订单账；服务器的原话：%1）</translation>
    </message>
    <message>
        <source>the ledger query was refused: the database is opened read-only (this console never writes to a ledger; SQLite said: %1)</source>
        <translation>订单账查询被拒绝：数据库以只读方式打开（本控制台从不写入订单账；SQLite 的原话：%1）</translation>
    </message>
    <message>
        <source>the ledger query failed</source>
        <translation>订单账查询失败</translation>
    </message>
    <message>
        <source>the ledger query was refused: it must be one SELECT, read through a cursor (this console never writes to a ledger; the server said: %1)</source>
        <translation>订单账查询被拒绝：必须是一条通过游标读取的 SELECT（本控制台从不写入订单账；服务器的原话：%1）</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>the query&apos;s result has no column &quot;%1&quot; (it has: %2; --ledger-columns maps others)</source>
        <translation>查询结果中没有列“%1”（现有列：%2；可用 --ledger-columns 映射其他列）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is NULL</source>
        <translation>“%1”为 NULL</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>The console cannot start with these arguments.</source>
        <translation>控制台无法以这些参数启动。</translation>
    </message>
    <message>
        <source>%1

Run inventory-console --help for the options.</source>
        <translation>%1

运行 inventory-console --help 查看选项。</translation>
    </message>
    <message>
        <source>The embedded demo could not start.</source>
        <translation>内置演示无法启动。</translation>
    </message>
</context>
<context>
    <name>metrics::ServerSample</name>
    <message>
        <source>INFO has no %1 field</source>
        <translation>INFO 中没有 %1 字段</translation>
    </message>
    <message>
        <source>INFO %1 is not an integer: &quot;%2&quot;</source>
        <translation>INFO 的 %1 不是整数：“%2”</translation>
    </message>
    <message>
        <source>INFO commandstats of %1 has no calls count: &quot;%2&quot;</source>
        <translation>%1 的 INFO commandstats 没有调用次数（calls）：“%2”</translation>
    </message>
    <message>
        <source>command/histogram pairs</source>
        <translation>“命令/直方图”成对的元素</translation>
    </message>
    <message>
        <source>bound/count pairs</source>
        <translation>“上界/次数”成对的元素</translation>
    </message>
    <message>
        <source>a histogram with a calls field</source>
        <translation>带 calls 字段的直方图</translation>
    </message>
    <message>
        <source>expected %1 replies to a sample, got %2</source>
        <translation>一次采样应有 %1 个应答，实际为 %2 个</translation>
    </message>
</context>
<context>
    <name>metrics::SlowLog</name>
    <message>
        <source>a slow-log entry of at least 4 fields</source>
        <translation>至少有 4 个字段的慢日志条目</translation>
    </message>
</context>
<context>
    <name>metrics::SlowLogModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Command (◆ = FCALL/EVALSHA)</source>
        <translation>命令（◆ = FCALL/EVALSHA）</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
</context>
<context>
    <name>metrics::SlowLogReader</name>
    <message>
        <source>No node to read</source>
        <translation>没有可读取的节点</translation>
    </message>
</context>
<context>
    <name>metrics::StockWatcher</name>
    <message>
        <source>the stock key does not exist</source>
        <translation>库存键不存在</translation>
    </message>
    <message>
        <source>not an integer: %1</source>
        <translation>不是整数：%1</translation>
    </message>
</context>
<context>
    <name>overview::ClusterHealth</name>
    <message numerus="yes">
        <source>cluster, %n primaries</source>
        <translation>
            <numerusform>集群，%n 个主节点</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 down: %2</source>
        <translation>，%1 个下线：%2</translation>
    </message>
</context>
<context>
    <name>overview::NodeOverview</name>
    <message>
        <source>primary</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>replica</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>replica of %1</source>
        <translation>%1 的副本</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>overview::ServerOverview</name>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>The primary moved from %1 to %2, another server (run_id %3, not %4). It holds what it had replicated from %1: writes %1 acknowledged just before the move may be missing here, so check a receipt before relying on it.</source>
        <translation>主节点已从 %1 移到 %2，这是另一台服务器（run_id %3，不是 %4）。它只保存从 %1 复制到的内容：%1 在切换前刚确认的写入可能在这里缺失，因此依赖回执之前请先检查它。</translation>
    </message>
    <message>
        <source>AOF is on, so receipts written before it should have been kept; check a receipt before relying on it.</source>
        <translation>AOF 已开启，因此之前写入的回执应当已保留；依赖回执之前请先检查它。</translation>
    </message>
    <message>
        <source>AOF is off: receipts written before it are gone unless its last snapshot held them, and a retry of those orders deducts again.</source>
        <translation>AOF 已关闭：除非它的最后一次快照保存了之前写入的回执，否则这些回执已经丢失，重试这些订单会再次扣减。</translation>
    </message>
    <message>
        <source>Its persistence could not be read: receipts written before it may be gone.</source>
        <translation>无法读取它的持久化设置：之前写入的回执可能已经丢失。</translation>
    </message>
    <message>
        <source>The server behind this address restarted or was replaced: its run_id changed from %1 to %2 (this one started at %3). %4</source>
        <translation>此地址后面的服务器已重启或被替换：它的 run_id 从 %1 变为 %2（这台启动于 %3）。%4</translation>
    </message>
    <message>
        <source>overview: wrong number of replies</source>
        <translation>概览：应答的数量不对</translation>
    </message>
</context>
<context>
    <name>profiles::AnnouncedMapField</name>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
</context>
<context>
    <name>profiles::ConnectionProfile</name>
    <message>
        <source>the profile needs a name</source>
        <translation>配置需要一个名称</translation>
    </message>
    <message>
        <source>the profile name must not start or end with a space</source>
        <translation>配置名称不能以空格开头或结尾</translation>
    </message>
    <message>
        <source>the profile name is longer than 64 characters</source>
        <translation>配置名称超过 64 个字符</translation>
    </message>
    <message>
        <source>the profile name must not contain &apos;/&apos;, &apos;\&apos; or control characters</source>
        <translation>配置名称不能包含 &apos;/&apos;、&apos;\&apos; 或控制字符</translation>
    </message>
    <message>
        <source>SSH: %1</source>
        <translation>SSH：%1</translation>
    </message>
    <message>
        <source>a server reached through an SSH bastion does not run on this machine: label it test, staging or production</source>
        <translation>经 SSH 堡垒机访问的服务器不在本机上运行：请将它标为 test、staging 或 production</translation>
    </message>
    <message>
        <source>SSH: a jump host or identity file is set but no bastion: give the bastion or clear them</source>
        <translation>SSH：设置了跳板机或身份文件，但没有堡垒机：请填写堡垒机，或清除它们</translation>
    </message>
    <message>
        <source>Sentinel: %1</source>
        <translation>哨兵：%1</translation>
    </message>
    <message>
        <source>Sentinel: the master name must not contain spaces (at most 128 characters)</source>
        <translation>哨兵：主节点名称不能包含空格（最多 128 个字符）</translation>
    </message>
    <message>
        <source>Sentinel: the user name must not contain spaces</source>
        <translation>哨兵：用户名不能包含空格</translation>
    </message>
    <message>
        <source>Sentinel may name a primary on another machine after a failover: label it test, staging or production</source>
        <translation>故障转移后哨兵可能指向另一台机器上的主节点：请将它标为 test、staging 或 production</translation>
    </message>
    <message>
        <source>announced addresses are for a cluster&apos;s nodes; they are not applied to what sentinels name</source>
        <translation>通告地址映射用于集群节点；不会应用于哨兵给出的地址</translation>
    </message>
    <message>
        <source>Sentinel: sentinels are listed but no master name: give the name they monitor, or clear them</source>
        <translation>哨兵：列出了哨兵但没有主节点名称：请填写它们监控的名称，或清除它们</translation>
    </message>
    <message>
        <source>the host is empty: give a host name or an IP address</source>
        <translation>主机为空：请填写主机名或 IP 地址</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid host name or IP address</source>
        <translation>“%1”不是有效的主机名或 IP 地址</translation>
    </message>
    <message>
        <source>the port must be between 1 and 65535 (got %1)</source>
        <translation>端口必须在 1 到 65535 之间（当前为 %1）</translation>
    </message>
    <message>
        <source>the database number must be between 0 and 65535 (got %1)</source>
        <translation>数据库编号必须在 0 到 65535 之间（当前为 %1）</translation>
    </message>
    <message>
        <source>unknown environment label &apos;%1&apos;: use one of %2</source>
        <translation>未知的环境标签“%1”：请使用 %2 之一</translation>
    </message>
    <message>
        <source>the ledger URL holds a password: it belongs in the keyring, never in the profile</source>
        <translation>订单账 URL 中含有密码：密码应存入密钥环，绝不能写在配置中</translation>
    </message>
    <message>
        <source>the user name must not contain spaces</source>
        <translation>用户名不能包含空格</translation>
    </message>
    <message>
        <source>the release user name must not contain spaces</source>
        <translation>发布用户名不能包含空格</translation>
    </message>
    <message>
        <source>announced addresses, %1</source>
        <translation>通告地址，%1</translation>
    </message>
    <message>
        <source>TLS files are set but TLS is off: turn TLS on or clear the files</source>
        <translation>设置了 TLS 文件但 TLS 已关闭：请开启 TLS 或清除这些文件</translation>
    </message>
    <message>
        <source>a client certificate needs both the certificate and its key file</source>
        <translation>客户端证书需要同时提供证书和其密钥文件</translation>
    </message>
    <message>
        <source>the stock key template must contain &lt;sku&gt; (default %1)</source>
        <translation>库存键模板必须包含 &lt;sku&gt;（默认 %1）</translation>
    </message>
    <message>
        <source>the receipt key template must contain &lt;sku&gt; and &lt;order&gt; (default %1)</source>
        <translation>回执键模板必须包含 &lt;sku&gt; 和 &lt;order&gt;（默认 %1）</translation>
    </message>
    <message>
        <source>the stock and receipt templates must use the same hash tag (such as {&lt;sku&gt;}) so that both keys land in one cluster slot</source>
        <translation>库存键和回执键模板必须使用相同的哈希标签（如 {&lt;sku&gt;}），以便两个键落在同一个集群槽中</translation>
    </message>
    <message>
        <source>the receipt TTL must be between 1 and %1 seconds</source>
        <translation>回执 TTL 必须在 1 到 %1 秒之间</translation>
    </message>
    <message>
        <source>the timeout must be between 100 ms and 10 minutes</source>
        <translation>超时必须在 100 毫秒到 10 分钟之间</translation>
    </message>
</context>
<context>
    <name>profiles::ConsoleCommandLine</name>
    <message>
        <source>%1 is not valid UTF-8: a server URL is sent as text, so a byte cannot be guessed; give the text in UTF-8</source>
        <translation>%1 不是有效的 UTF-8：服务器 URL 以文本发送，无法猜测字节；请以 UTF-8 给出文本</translation>
    </message>
    <message>
        <source>--%1 is given more than once.</source>
        <translation>--%1 给出了不止一次。</translation>
    </message>
    <message>
        <source>Give one server: %1 URLs were given.</source>
        <translation>请只给出一个服务器：给出了 %1 个 URL。</translation>
    </message>
    <message>
        <source>Choose one of --demo, --connect or a server URL.</source>
        <translation>请在 --demo、--connect 或服务器 URL 中选择一个。</translation>
    </message>
    <message>
        <source>--tab must be one of %1.</source>
        <translation>--tab 必须是以下之一：%1。</translation>
    </message>
    <message>
        <source>--env labels a server given by URL; the demo is always local and a saved profile has its own label.</source>
        <translation>--env 用于标记以 URL 给出的服务器；演示始终是 local，已保存的配置有自己的标签。</translation>
    </message>
    <message>
        <source>The argument is not a redis:// or rediss:// URL.</source>
        <translation>该参数不是 redis:// 或 rediss:// URL。</translation>
    </message>
    <message>
        <source>The server URL was refused: %1</source>
        <translation>服务器 URL 被拒绝：%1</translation>
    </message>
    <message>
        <source>--env must be local, test, staging or production.</source>
        <translation>--env 必须是 local、test、staging 或 production。</translation>
    </message>
    <message>
        <source>--env: %1.</source>
        <translation>--env：%1。</translation>
    </message>
</context>
<context>
    <name>profiles::ProfileStore</name>
    <message>
        <source>the settings file %1 could not be written</source>
        <translation>无法写入设置文件 %1</translation>
    </message>
</context>
<context>
    <name>profiles::RedisUrl</name>
    <message>
        <source>invalid database: the database must be a number from 0 to 65535, as in redis://host:6379/0</source>
        <translation>数据库无效：数据库必须是 0 到 65535 之间的数字，例如 redis://host:6379/0</translation>
    </message>
    <message>
        <source>invalid percent-encoding in the user name</source>
        <translation>用户名中的百分号编码无效</translation>
    </message>
    <message>
        <source>invalid percent-encoding in the password (write a &apos;%&apos; as %25)</source>
        <translation>密码中的百分号编码无效（“%”要写成 %25）</translation>
    </message>
    <message>
        <source>the user name must not contain spaces</source>
        <translation>用户名不能包含空格</translation>
    </message>
    <message>
        <source>an IPv6 address must be closed with &apos;]&apos;, as in redis://[::1]:6379</source>
        <translation>IPv6 地址必须以“]”结束，例如 redis://[::1]:6379</translation>
    </message>
    <message>
        <source>&apos;%1&apos; in brackets is not an IPv6 address</source>
        <translation>方括号中的“%1”不是 IPv6 地址</translation>
    </message>
    <message>
        <source>unexpected text after the IPv6 address: write [address]:port</source>
        <translation>IPv6 地址后面有多余的文字：请写成 [地址]:端口</translation>
    </message>
    <message>
        <source>an IPv6 address must be in brackets, as in redis://[::1]:6379</source>
        <translation>IPv6 地址必须写在方括号中，例如 redis://[::1]:6379</translation>
    </message>
    <message>
        <source>invalid host name: use letters, digits, &apos;-&apos; and &apos;.&apos;, an IPv4 address or an [IPv6] address</source>
        <translation>主机名无效：请使用字母、数字、“-”和“.”，或 IPv4 地址、[IPv6] 地址</translation>
    </message>
    <message>
        <source>the URL has no host, as in redis://127.0.0.1:6379</source>
        <translation>URL 中没有主机，应类似 redis://127.0.0.1:6379</translation>
    </message>
    <message>
        <source>invalid port: the port must be a number from 1 to 65535</source>
        <translation>端口无效：端口必须是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>unsupported URL option &apos;%1&apos;: only db=N is understood</source>
        <translation>不支持的 URL 选项“%1”：只支持 db=N</translation>
    </message>
    <message>
        <source>the database is given twice (path and db=)</source>
        <translation>数据库给出了两次（路径和 db=）</translation>
    </message>
    <message>
        <source>not a Redis URL: expected redis://host:port/db or rediss://host:port/db</source>
        <translation>不是 Redis URL：应为 redis://host:port/db 或 rediss://host:port/db</translation>
    </message>
    <message>
        <source>unsupported scheme &apos;%1&apos;: use redis:// or rediss:// (TLS)</source>
        <translation>不支持的协议“%1”：请使用 redis:// 或 rediss://（TLS）</translation>
    </message>
</context>
<context>
    <name>profiles::SavedLabel</name>
    <message>
        <source>the label %1 would lower the server&apos;s saved label: profile &apos;%2&apos; labels %3:%4 %5. Open that profile, or change its label in the connection dialog</source>
        <translation>标签 %1 会降低该服务器已保存的标签：配置“%2”将 %3:%4 标为 %5。请打开该配置，或在连接对话框中修改其标签</translation>
    </message>
</context>
<context>
    <name>profiles::SecretStore</name>
    <message>
        <source>no D-Bus session bus, so no desktop keyring can be reached</source>
        <translation>没有 D-Bus 会话总线，因此无法访问桌面密钥环</translation>
    </message>
    <message>
        <source>the keyring is turned off</source>
        <translation>密钥环已关闭</translation>
    </message>
    <message>
        <source>Looking for a system keyring…</source>
        <translation>正在查找系统密钥环…</translation>
    </message>
    <message>
        <source>The password is stored in the system keyring.</source>
        <translation>密码保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>The password is kept for this session only (%1).</source>
        <translation>密码仅在本次会话中保留（%1）。</translation>
    </message>
    <message>
        <source>no usable keyring: %1</source>
        <translation>没有可用的密钥环：%1</translation>
    </message>
    <message>
        <source>the keyring did not answer within %1 s</source>
        <translation>密钥环在 %1 秒内没有应答</translation>
    </message>
    <message>
        <source>The keyring refused the password (%1): it is kept for this session only.</source>
        <translation>密钥环拒绝了该密码（%1）：它仅在本次会话中保留。</translation>
    </message>
</context>
<context>
    <name>readiness::Finding</name>
    <message>
        <source>PASS</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>WARN</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>COULD NOT CHECK</source>
        <translation>无法检查</translation>
    </message>
    <message>
        <source>Ready: every rule passed.</source>
        <translation>就绪：所有规则均通过。</translation>
    </message>
    <message>
        <source>Ready with warnings: read each warning before the release.</source>
        <translation>就绪但有警告：发布前请逐条阅读警告。</translation>
    </message>
    <message>
        <source>Not ready: fix the failed rules before the release.</source>
        <translation>未就绪：发布前请修复未通过的规则。</translation>
    </message>
    <message>
        <source>Incomplete: some rules could not be checked; give the audit the permissions they name, then run it again.</source>
        <translation>不完整：有些规则无法检查；请给预检授予它们所指出的权限，然后再运行一次。</translation>
    </message>
</context>
<context>
    <name>readiness::ReadinessAudit</name>
    <message>
        <source>no primary is known for %1</source>
        <translation>%1 没有已知的主节点</translation>
    </message>
</context>
<context>
    <name>readiness::ReadinessReport</name>
    <message>
        <source>could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>could not write %1: it is not a regular file (a device, FIFO, socket or directory); give a file name</source>
        <translation>无法写入 %1：它不是普通文件（是设备、FIFO、套接字或目录）；请给出文件名</translation>
    </message>
    <message>
        <source>could not create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>could not encode the chart image %1 as PNG</source>
        <translation>无法将图表图像 %1 编码为 PNG</translation>
    </message>
</context>
<context>
    <name>readiness::Rules</name>
    <message>
        <source>the server has no parameter %1 (Redis 7 or later has it)</source>
        <translation>服务器没有参数 %1（Redis 7 及以上版本才有）</translation>
    </message>
    <message>
        <source>noeviction: when memory is full Redis refuses writes instead of deleting keys, so no receipt disappears before its TTL.</source>
        <translation>noeviction：内存满时 Redis 拒绝写入而不是删除键，因此没有回执会在其 TTL 到期前消失。</translation>
    </message>
    <message>
        <source>%1 lets Redis delete any key when memory is full, receipts included, and a retry of an evicted receipt&apos;s order deducts again: set maxmemory-policy noeviction.</source>
        <translation>%1 允许 Redis 在内存满时删除任何键，包括回执，而回执被驱逐的订单重试时会再扣减一次：请设置 maxmemory-policy noeviction。</translation>
    </message>
    <message>
        <source>%1 evicts keys that have a TTL, and receipts are exactly those keys, so they go first and a retry deducts again: set maxmemory-policy noeviction.</source>
        <translation>%1 会驱逐带 TTL 的键，而回执正是这类键，因此它们首先被删除，重试会再扣减一次：请设置 maxmemory-policy noeviction。</translation>
    </message>
    <message>
        <source>unknown policy %1: check that it never evicts keys with a TTL, or set maxmemory-policy noeviction.</source>
        <translation>未知策略 %1：请确认它从不驱逐带 TTL 的键，或设置 maxmemory-policy noeviction。</translation>
    </message>
    <message>
        <source>the server&apos;s last AOF write failed, so recent receipts may exist only in memory: read the server log (disk full, permissions) and fix it.</source>
        <translation>服务器最近一次 AOF 写入失败，因此最近的回执可能只存在于内存中：请查看服务器日志（磁盘已满、权限）并修复。</translation>
    </message>
    <message>
        <source>the server&apos;s last RDB snapshot failed, so recent receipts may exist only in memory: read the server log (disk full, permissions) and fix it.</source>
        <translation>服务器最近一次 RDB 快照失败，因此最近的回执可能只存在于内存中：请查看服务器日志（磁盘已满、权限）并修复。</translation>
    </message>
    <message>
        <source>AOF is on but appendfsync no leaves flushing to the OS: a crash can lose tens of seconds of receipts, and retries of those orders deduct again: set appendfsync everysec.</source>
        <translation>AOF 已开启，但 appendfsync no 把刷盘交给操作系统：一次崩溃可能丢失几十秒的回执，这些订单重试时会再扣减一次：请设置 appendfsync everysec。</translation>
    </message>
    <message>
        <source>AOF is on with appendfsync %1: a restart keeps the receipts (at most about a second lost with everysec).</source>
        <translation>AOF 已开启，appendfsync 为 %1：重启后回执仍在（使用 everysec 时最多丢失约一秒）。</translation>
    </message>
    <message>
        <source>RDB snapshots only: a crash loses every receipt written since the last snapshot, and retries of those orders deduct again: set appendonly yes (appendfsync everysec).</source>
        <translation>只有 RDB 快照：一次崩溃会丢失上次快照以来写入的所有回执，这些订单重试时会再扣减一次：请设置 appendonly yes（appendfsync everysec）。</translation>
    </message>
    <message>
        <source>no persistence (appendonly no, save &apos;&apos;): a restart loses every receipt and every stock value: set appendonly yes with appendfsync everysec.</source>
        <translation>没有持久化（appendonly no，save &apos;&apos;）：一次重启会丢失所有回执和所有库存值：请设置 appendonly yes 并使用 appendfsync everysec。</translation>
    </message>
    <message>
        <source>this node is a %1, not a primary: run the audit against the primary, where deductions are written.</source>
        <translation>此节点是 %1，不是主节点：请对主节点运行预检，扣减写在那里。</translation>
    </message>
    <message>
        <source>min-replicas-to-write is %1 but %2 replica(s) are connected, so the primary refuses every deduction (NOREPLICAS): connect the replicas or lower the setting.</source>
        <translation>min-replicas-to-write 为 %1，但只连接了 %2 个副本，因此主节点会拒绝每一次扣减（NOREPLICAS）：请连接副本或调低该设置。</translation>
    </message>
    <message>
        <source>no replica is connected: losing this server loses every receipt: add a replica and set min-replicas-to-write 1.</source>
        <translation>没有连接任何副本：失去这台服务器就会失去所有回执：请添加一个副本并设置 min-replicas-to-write 1。</translation>
    </message>
    <message>
        <source>%1 replica(s) connected, but min-replicas-to-write is 0: a deduction acknowledged just before a failover can be missing on the new primary, receipt and all: set min-replicas-to-write 1.</source>
        <translation>已连接 %1 个副本，但 min-replicas-to-write 为 0：故障切换前刚确认的扣减可能在新主节点上连同回执一起丢失：请设置 min-replicas-to-write 1。</translation>
    </message>
    <message>
        <source>%1 replica(s) connected and writes need %2: an acknowledged deduction is on a replica too.</source>
        <translation>已连接 %1 个副本，写入需要 %2 个：已确认的扣减在副本上也有。</translation>
    </message>
    <message>
        <source>a function running longer than %1 ms makes the server answer BUSY (nothing ran) before clients time out after %2 ms.</source>
        <translation>运行超过 %1 毫秒的函数会让服务器应答 BUSY（未执行任何内容），早于客户端在 %2 毫秒后超时。</translation>
    </message>
    <message>
        <source>busy-reply-threshold %1 ms is not below the client timeout %2 ms: behind a slow function, callers time out with the outcome unknown before the server would answer BUSY: set busy-reply-threshold below %2 (e.g. 1000).</source>
        <translation>busy-reply-threshold %1 毫秒不低于客户端超时 %2 毫秒：排在慢函数后面的调用方会在服务器应答 BUSY 之前超时，结果未知：请把 busy-reply-threshold 设为低于 %2（例如 1000）。</translation>
    </message>
    <message>
        <source>user &apos;%1&apos;, who calls the deduct functions, may also replace them with FUNCTION LOAD: load libraries as a separate release user and take that right from &apos;%1&apos; (ACL SETUSER %1 -function|load -function|restore -function|delete -function|flush).</source>
        <translation>调用扣减函数的用户“%1”也能用 FUNCTION LOAD 替换它们：请用单独的发布用户加载函数库，并收回“%1”的这项权限（ACL SETUSER %1 -function|load -function|restore -function|delete -function|flush）。</translation>
    </message>
    <message>
        <source>user &apos;%1&apos; may not load libraries: only a release user can replace the deduct functions.</source>
        <translation>用户“%1”无权加载函数库：只有发布用户能替换扣减函数。</translation>
    </message>
    <message>
        <source>the keys have not been scanned yet: scan them (Keys tab), then check again.</source>
        <translation>尚未扫描键：请先扫描（“键”标签页），然后再检查。</translation>
    </message>
    <message>
        <source>the last key scan did not finish (%1): scan again, then check again.</source>
        <translation>上次键扫描没有完成（%1）：请重新扫描，然后再检查。</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>the console writes receipts that live %1 s, less than the %2 s retry window, so a late retry deducts again: raise the profile&apos;s receipt TTL above the window.</source>
        <translation>控制台写入的回执存活 %1 秒，短于 %2 秒的重试窗口，因此较晚的重试会再扣减一次：请把配置中的回执 TTL 调到窗口以上。</translation>
    </message>
    <message>
        <source>%1 receipt(s) expire within the %2 retry window (soonest in %3: %4): a retry of those orders after that deducts again; if they may still be retried, write receipts with a longer TTL.</source>
        <translation>%1 条回执会在 %2 的重试窗口内过期（最早在 %3 后：%4）：此后重试这些订单会再扣减一次；如果它们仍可能被重试，请用更长的 TTL 写入回执。</translation>
    </message>
    <message>
        <source>no receipts in the last scan, so none can expire early.</source>
        <translation>上次扫描中没有回执，因此不会有回执提前过期。</translation>
    </message>
    <message>
        <source>no receipt has a TTL, so none expires early (receipts without a TTL are the next rule).</source>
        <translation>没有回执带 TTL，因此没有回执会提前过期（没有 TTL 的回执由下一条规则检查）。</translation>
    </message>
    <message>
        <source>every receipt outlives the %1 retry window (the soonest expires in %2).</source>
        <translation>每条回执的存活时间都超过 %1 的重试窗口（最早的在 %2 后过期）。</translation>
    </message>
    <message>
        <source>every receipt has a TTL.</source>
        <translation>每条回执都有 TTL。</translation>
    </message>
    <message>
        <source>%1 receipt(s) never expire (%2): the deduct function always writes a TTL, so something else wrote them; they hold memory forever: find the writer, then give them a TTL (EXPIRE).</source>
        <translation>%1 条回执永不过期（%2）：扣减函数总会写入 TTL，因此它们是别的程序写入的；它们会永远占用内存：请找到写入者，然后给它们设置 TTL（EXPIRE）。</translation>
    </message>
    <message>
        <source>%1 not a canonical integer (%2), which the deduct function refuses with an error</source>
        <translation>%1 个不是规范整数（%2），扣减函数会以错误拒绝它们</translation>
    </message>
    <message>
        <source>%1 negative (%2), stock that was oversold</source>
        <translation>%1 个为负数（%2），即被超卖的库存</translation>
    </message>
    <message>
        <source>every stock value is a canonical integer of 0 or more.</source>
        <translation>每个库存值都是大于等于 0 的规范整数。</translation>
    </message>
    <message>
        <source>stock values: %1: correct them (SET the key to the counted stock) before the release.</source>
        <translation>库存值：%1：发布前请更正它们（用 SET 把键设为盘点出的库存）。</translation>
    </message>
    <message>
        <source>On %1: %2</source>
        <translation>在 %1 上：%2</translation>
    </message>
    <message>
        <source>no node was read</source>
        <translation>未读取任何节点</translation>
    </message>
    <message>
        <source>no release catalogue</source>
        <translation>没有版本目录</translation>
    </message>
    <message>
        <source>the console ships no library to compare with</source>
        <translation>控制台没有附带可供比较的函数库</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>%1 is not loaded, so every deduction there fails with &apos;Function not found&apos;: load the shipped %2 (inventory-cli functions load).</source>
        <translation>%1 未加载，因此那里的每次扣减都会以“Function not found”失败：请加载随附的 %2（inventory-cli functions load）。</translation>
    </message>
    <message>
        <source>%1 is byte for byte the shipped release %2.</source>
        <translation>%1 与随附的版本 %2 逐字节相同。</translation>
    </message>
    <message>
        <source>%1 is the older release %2, not the shipped %3: load the shipped release before relying on what %3 fixed.</source>
        <translation>%1 是较旧的版本 %2，不是随附的 %3：在依赖 %3 所修复的内容之前，请先加载随附的版本。</translation>
    </message>
    <message>
        <source>%1 matches no release (%2): code nobody shipped deducts stock; load the shipped %3 (inventory-cli functions load).</source>
        <translation>%1 与任何版本都不匹配（%2）：正在扣减库存的是无人发布过的代码；请加载随附的 %3（inventory-cli functions load）。</translation>
    </message>
    <message>
        <source>%1 carries the no-writes flag, so Redis refuses its DECRBY and SET and every deduction fails: remove the flag and load the library again.</source>
        <translation>%1 带有 no-writes 标志，因此 Redis 拒绝它的 DECRBY 和 SET，每次扣减都会失败：请去掉该标志并重新加载函数库。</translation>
    </message>
    <message>
        <source>no deduct function is loaded (see the library rule).</source>
        <translation>没有加载任何扣减函数（见函数库规则）。</translation>
    </message>
    <message>
        <source>%1 may write (no no-writes flag).</source>
        <translation>%1 可以写入（没有 no-writes 标志）。</translation>
    </message>
    <message>
        <source>no libraries</source>
        <translation>没有函数库</translation>
    </message>
    <message>
        <source>%1 hold(s) different libraries from %2, so a deduction runs different code depending on its SKU&apos;s slot: load the same release on every primary.</source>
        <translation>%1 持有的函数库与 %2 不同，因此扣减会因 SKU 所在的槽不同而运行不同的代码：请在每个主节点上加载同一版本。</translation>
    </message>
    <message>
        <source>a single primary: there is one copy of the library, nothing can drift.</source>
        <translation>只有一个主节点：函数库只有一份，不会出现漂移。</translation>
    </message>
    <message>
        <source>all %1 primaries hold the same libraries, byte for byte.</source>
        <translation>全部 %1 个主节点持有逐字节相同的函数库。</translation>
    </message>
    <message>
        <source>Eviction policy</source>
        <translation>驱逐策略</translation>
    </message>
    <message>
        <source>Persistence</source>
        <translation>持久化</translation>
    </message>
    <message>
        <source>Replication</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Busy script threshold</source>
        <translation>忙碌脚本阈值</translation>
    </message>
    <message>
        <source>Loaded library is a shipped release</source>
        <translation>已加载的函数库是随附的版本</translation>
    </message>
    <message>
        <source>Deduct functions may write</source>
        <translation>扣减函数可以写入</translation>
    </message>
    <message>
        <source>Same library on every primary</source>
        <translation>每个主节点上的函数库相同</translation>
    </message>
    <message>
        <source>Calling user cannot load libraries</source>
        <translation>调用用户不能加载函数库</translation>
    </message>
    <message>
        <source>Receipt TTLs cover the retry window</source>
        <translation>回执 TTL 覆盖重试窗口</translation>
    </message>
    <message>
        <source>Receipts without a TTL</source>
        <translation>没有 TTL 的回执</translation>
    </message>
    <message>
        <source>Stock values are canonical, not negative</source>
        <translation>库存值规范且不为负</translation>
    </message>
    <message>
        <source> The same on all %1 primaries.</source>
        <translation>全部 %1 个主节点上均相同。</translation>
    </message>
    <message>
        <source>On %1 (%2 of %3 primaries): %4</source>
        <translation>在 %1 上（%3 个主节点中的 %2 个）：%4</translation>
    </message>
    <message>
        <source>client timeout (ms)</source>
        <translation>客户端超时（毫秒）</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>scan limited to</source>
        <translation>扫描范围限于</translation>
    </message>
    <message>
        <source>retry window</source>
        <translation>重试窗口</translation>
    </message>
    <message>
        <source>receipt TTL written by the console</source>
        <translation>控制台写入的回执 TTL</translation>
    </message>
    <message>
        <source>receipts</source>
        <translation>回执</translation>
    </message>
    <message>
        <source>shortest remaining TTL</source>
        <translation>最短剩余 TTL</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>expiring within the window</source>
        <translation>在窗口内过期</translation>
    </message>
    <message>
        <source>without a TTL</source>
        <translation>没有 TTL</translation>
    </message>
    <message>
        <source>stock keys</source>
        <translation>库存键</translation>
    </message>
    <message>
        <source>not canonical</source>
        <translation>非规范</translation>
    </message>
    <message>
        <source>negative</source>
        <translation>负数</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上的 %1</translation>
    </message>
    <message>
        <source>no flags</source>
        <translation>无标志</translation>
    </message>
    <message>
        <source>primaries</source>
        <translation>主节点</translation>
    </message>
</context>
<context>
    <name>readiness::ServerRead</name>
    <message>
        <source>this user may not run %1 (NOPERM): grant it %2, or run the audit as a user who may</source>
        <translation>此用户无权运行 %1（NOPERM）：请授予它 %2，或以有权限的用户运行检查</translation>
    </message>
    <message>
        <source>the server does not know %1 (renamed, disabled or too old: Redis 7 is needed): %2</source>
        <translation>服务器不认识 %1（已改名、已禁用或版本太旧：需要 Redis 7）：%2</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>the server sent %1 replies to 5 commands</source>
        <translation>服务器对 5 条命令发回了 %1 个应答</translation>
    </message>
    <message>
        <source>CONFIG GET: unexpected reply (%1)</source>
        <translation>CONFIG GET：意外应答（%1）</translation>
    </message>
    <message>
        <source>FUNCTION LIST on %1: %2</source>
        <translation>%1 上的 FUNCTION LIST：%2</translation>
    </message>
</context>
<context>
    <name>reconcile::ReceiptPolicy</name>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>no server was read</source>
        <translation>未读取任何服务器</translation>
    </message>
    <message>
        <source>INFO has no maxmemory_policy</source>
        <translation>INFO 中没有 maxmemory_policy</translation>
    </message>
    <message>
        <source>Receipts are written to live %1 (the profile&apos;s receipt TTL), so one older than that has expired; could not read the eviction policy (%2), so whether one was evicted sooner is not proven.</source>
        <translation>回执写入时的存活期为 %1（配置中的回执 TTL），因此比这更早的回执已过期；无法读取驱逐策略（%2），因此无法证明是否有回执被提前驱逐。</translation>
    </message>
    <message>
        <source>the server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>the primaries</source>
        <translation>各主节点</translation>
    </message>
    <message>
        <source>Receipts are written to live %1 (the profile&apos;s receipt TTL), so one older than that has expired; the eviction policy on %2 is %3: once maxmemory is reached it can remove a receipt sooner.</source>
        <translation>回执写入时的存活期为 %1（配置中的回执 TTL），因此比这更早的回执已过期；%2上的驱逐策略是 %3：一旦达到 maxmemory，它可能提前删除回执。</translation>
    </message>
    <message>
        <source>Receipts are written to live %1 (the profile&apos;s receipt TTL), so one older than that has expired; the eviction policy on %2 is noeviction: it never removes a receipt sooner.</source>
        <translation>回执写入时的存活期为 %1（配置中的回执 TTL），因此比这更早的回执已过期；%2上的驱逐策略是 noeviction：它从不提前删除回执。</translation>
    </message>
    <message>
        <source>Receipts are written to live %1 (the profile&apos;s receipt TTL), so one older than that has expired; the eviction policy on %2 is %3 but no maxmemory is set: nothing is evicted.</source>
        <translation>回执写入时的存活期为 %1（配置中的回执 TTL），因此比这更早的回执已过期；%2上的驱逐策略是 %3，但没有设置 maxmemory：不会驱逐任何键。</translation>
    </message>
</context>
<context>
    <name>reconcile::ReconcileRun</name>
    <message>
        <source>could not read the release keys: EXISTS %1: %2</source>
        <translation>无法读取释放键：EXISTS %1：%2</translation>
    </message>
    <message>
        <source>answered %1</source>
        <translation>应答为 %1</translation>
    </message>
</context>
<context>
    <name>reconcile::Reconciler</name>
    <message>
        <source>Order %1 is committed in the ledger for %2 of SKU %3, but its deduction was released (the release key exists) and no receipt is left: stock was given back for a sold item. Check the order, then deduct %2 again by hand.</source>
        <translation>订单 %1 在订单账中已提交，SKU %3 数量 %2，但它的扣减已被释放（释放键存在）且没有剩下回执：已售出商品的库存被退回了。请核对该订单，然后手工再扣减 %2。</translation>
    </message>
    <message>
        <source>Order %1 is committed in the ledger for %2 of SKU %3 but Redis holds no receipt for it: a retry would deduct again.</source>
        <translation>订单 %1 在订单账中已提交，SKU %3 数量 %2，但 Redis 中没有它的回执：重试会再扣减一次。</translation>
    </message>
    <message>
        <source>It was committed %1 ago, longer than receipts live: its receipt has most likely expired.</source>
        <translation>它在 %1 前提交，超过了回执的存活期：它的回执很可能已过期。</translation>
    </message>
    <message>
        <source>It was committed %1 ago, within the receipt TTL: expiry does not explain it.</source>
        <translation>它在 %1 前提交，仍在回执 TTL 之内：过期解释不了这一点。</translation>
    </message>
    <message>
        <source>Do not retry this order; if its stock was never deducted, adjust the stock by hand.</source>
        <translation>不要重试该订单；如果它的库存从未扣减，请手工调整库存。</translation>
    </message>
    <message>
        <source>Order %1 is failed in the ledger and its deduction of SKU %2 was released already (the release key exists): nothing to do.</source>
        <translation>订单 %1 在订单账中为失败，它对 SKU %2 的扣减已经释放（释放键存在）：无需操作。</translation>
    </message>
    <message>
        <source>Order %1 is cancelled in the ledger and its deduction of SKU %2 was released already (the release key exists): nothing to do.</source>
        <translation>订单 %1 在订单账中已取消，它对 SKU %2 的扣减已经释放（释放键存在）：无需操作。</translation>
    </message>
    <message>
        <source>Order %1 is committed for %2 of SKU %3 and its receipt exists (a v1 receipt records no quantity: only the deduction itself was compared).</source>
        <translation>订单 %1 已提交，SKU %3 数量 %2，且回执存在（v1 回执不记录数量：只比对了扣减本身）。</translation>
    </message>
    <message>
        <source>Order %1 is committed for %2 of SKU %3 and its receipt recorded %2: in line.</source>
        <translation>订单 %1 已提交，SKU %3 数量 %2，回执记录的也是 %2：一致。</translation>
    </message>
    <message>
        <source>Order %1&apos;s receipt deducted %2 of SKU %3 but the ledger committed %4: the stock is short by %5. Check the order, then adjust the stock by %6.</source>
        <translation>订单 %1 的回执扣减了 SKU %3 数量 %2，但订单账提交的是 %4：库存少了 %5。请核对该订单，然后把库存调整 %6。</translation>
    </message>
    <message>
        <source>Order %1&apos;s receipt deducted %2 of SKU %3 but the ledger committed %4: the stock is over by %5. Check the order, then adjust the stock by %6.</source>
        <translation>订单 %1 的回执扣减了 SKU %3 数量 %2，但订单账提交的是 %4：库存多了 %5。请核对该订单，然后把库存调整 %6。</translation>
    </message>
    <message>
        <source>Order %1 is committed in the ledger, yet its deduction of SKU %2 was released (the release key exists) while its receipt remains: stock was given back for a sold item. Check the order before deducting again.</source>
        <translation>订单 %1 在订单账中已提交，但它对 SKU %2 的扣减已被释放（释放键存在），而回执仍在：已售出商品的库存被退回了。再次扣减之前请核对该订单。</translation>
    </message>
    <message>
        <source>Order %1&apos;s deduction of SKU %2 was released already (the release key exists): nothing to do.</source>
        <translation>订单 %1 对 SKU %2 的扣减已经释放（释放键存在）：无需操作。</translation>
    </message>
    <message>
        <source>(by the ledger) %1</source>
        <translation>（按订单账）%1</translation>
    </message>
    <message>
        <source>Order %1 is failed in the ledger but its receipt deducted %2 of SKU %3, never given back. Once the order is confirmed failed, release the deduction (it restores the units the receipt recorded).</source>
        <translation>订单 %1 在订单账中为失败，但它的回执扣减了 SKU %3 数量 %2，且从未退回。确认该订单失败后，请释放这次扣减（它会恢复回执所记录的数量）。</translation>
    </message>
    <message>
        <source>Order %1 is cancelled in the ledger but its receipt deducted %2 of SKU %3, never given back. Once the order is confirmed cancelled, release the deduction (it restores the units the receipt recorded).</source>
        <translation>订单 %1 在订单账中已取消，但它的回执扣减了 SKU %3 数量 %2，且从未退回。确认该订单已取消后，请释放这次扣减（它会恢复回执所记录的数量）。</translation>
    </message>
    <message>
        <source>an unrecorded quantity</source>
        <translation>未记录的数量</translation>
    </message>
    <message>
        <source>Order %1 has a receipt deducting %2 of SKU %3 written %4 ago (%5), and the ledger has no row for it (grace period %6): a deduction without an order. Check the order system, then release it.</source>
        <translation>订单 %1 有一条回执，扣减了 SKU %3 数量 %2，写于 %4 前（%5），而订单账中没有它的行（宽限期 %6）：这是一次没有订单的扣减。请核对订单系统，然后释放它。</translation>
    </message>
    <message>
        <source>no stock key</source>
        <translation>没有库存键</translation>
    </message>
    <message>
        <source>not an integer</source>
        <translation>不是整数</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>未读取</translation>
    </message>
</context>
<context>
    <name>redis::ClusterRouter</name>
    <message>
        <source>the connection was closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <source>the cluster redirected this command %1 times (last: %2): its slots are moving between nodes; try again in a moment</source>
        <translation>集群已将此命令重定向 %1 次（最后一次：%2）：它的槽正在节点之间迁移；请稍后重试</translation>
    </message>
</context>
<context>
    <name>redis::ClusterTopology</name>
    <message>
        <source>the cluster&apos;s topology reply has an unexpected shape: %1</source>
        <translation>集群拓扑应答的格式不符合预期：%1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an address mapping: write announced=reachable, each side host:port or a host, e.g. 10.0.0.5:6379=127.0.0.1:7001</source>
        <translation>“%1”不是地址映射：请写成 announced=reachable，每一侧为 host:port 或单独的主机，例如 10.0.0.5:6379=127.0.0.1:7001</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: give a port on both sides or on neither</source>
        <translation>“%1”：请在两侧都写端口，或两侧都不写</translation>
    </message>
    <message>
        <source>expected an array of shards</source>
        <translation>应为分片数组</translation>
    </message>
    <message>
        <source>a shard without slots and nodes</source>
        <translation>有分片缺少槽或节点</translation>
    </message>
    <message>
        <source>a slot range outside 0-16383</source>
        <translation>有槽范围超出 0-16383</translation>
    </message>
    <message>
        <source>a node without id, port or role</source>
        <translation>有节点缺少 id、端口或角色</translation>
    </message>
    <message>
        <source>expected an array of slot ranges</source>
        <translation>应为槽范围数组</translation>
    </message>
    <message>
        <source>a slot range without a node</source>
        <translation>有槽范围没有节点</translation>
    </message>
    <message>
        <source>a node without host and port</source>
        <translation>有节点缺少主机或端口</translation>
    </message>
    <message>
        <source>no primary of the cluster at %1 serves a slot (a node not yet in a formed cluster?): there is nothing to read</source>
        <translation>%1 处的集群没有任何主节点负责槽（该节点尚未加入已组建的集群？）：没有可读取的内容</translation>
    </message>
    <message>
        <source>%1 of %2 slots have no primary serving them: their keys cannot be read (is a primary down?)</source>
        <translation>%2 个槽中有 %1 个没有主节点负责：其中的键无法读取（有主节点宕机了吗？）</translation>
    </message>
</context>
<context>
    <name>redis::ConnectionWorker</name>
    <message>
        <source>no answer from %1 within %2 ms: check the host, the port and any firewall in between</source>
        <translation>%1 在 %2 毫秒内没有应答：请检查主机、端口以及中间的防火墙</translation>
    </message>
    <message>
        <source>the connection was closed by the console</source>
        <translation>连接已由控制台关闭</translation>
    </message>
    <message>
        <source>the connection to %1 was closed: %2</source>
        <translation>到 %1 的连接已关闭：%2</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation>第 %1 次尝试</translation>
    </message>
    <message>
        <source>TLS verification failed for %1: %2. Check the CA file and the server name, or the server&apos;s certificate</source>
        <translation>%1 的 TLS 验证失败：%2。请检查 CA 文件和服务器名称，或服务器的证书</translation>
    </message>
    <message>
        <source>no answer to the connection setup from %1</source>
        <translation>%1 没有应答连接建立请求</translation>
    </message>
    <message>
        <source>authentication failed on %1 (%2) for the user name given without a password; if it was a password, write redis://:PASSWORD@host</source>
        <translation>在 %1 上认证失败（%2）：给出了用户名但没有密码；如果那是密码，请写成 redis://:PASSWORD@host</translation>
    </message>
    <message>
        <source>authentication failed for user &apos;%1&apos; on %2 (%3): check the user name and password</source>
        <translation>用户“%1”在 %2 上认证失败（%3）：请检查用户名和密码</translation>
    </message>
    <message>
        <source>%1 requires a password: set one in the connection</source>
        <translation>%1 需要密码：请在连接中设置密码</translation>
    </message>
    <message>
        <source>the server refused the connection setup: %1</source>
        <translation>服务器拒绝了连接建立：%1</translation>
    </message>
    <message>
        <source>protocol error from %1: %2 (is this a Redis server, and does it expect TLS?)</source>
        <translation>来自 %1 的协议错误：%2（这是 Redis 服务器吗？它是否要求 TLS？）</translation>
    </message>
    <message>
        <source>protocol error: unexpected reply from %1</source>
        <translation>协议错误：来自 %1 的意外回复</translation>
    </message>
    <message>
        <source>could not look up host &apos;%1&apos; (%2): the name server could not be reached, so the name is neither found nor refused. Check this machine&apos;s network and DNS settings, or give an IP address</source>
        <translation>无法解析主机“%1”（%2）：无法连到域名服务器，因此该名称既未找到也未被拒绝。请检查本机的网络和 DNS 设置，或改用 IP 地址</translation>
    </message>
    <message>
        <source>%1 closed the connection</source>
        <translation>%1 关闭了连接</translation>
    </message>
    <message>
        <source>connection refused by %1: is Redis running there, on that port?</source>
        <translation>%1 拒绝了连接：Redis 是否在该主机的这个端口上运行？</translation>
    </message>
    <message>
        <source>host &apos;%1&apos; not found: check the host name</source>
        <translation>找不到主机“%1”：请检查主机名</translation>
    </message>
    <message>
        <source>no answer from %1: check the host, the port and any firewall</source>
        <translation>%1 没有应答：请检查主机、端口以及防火墙</translation>
    </message>
    <message>
        <source>TLS handshake with %1 failed: %2. Check the CA file, the server name, and that the server speaks TLS on this port</source>
        <translation>与 %1 的 TLS 握手失败：%2。请检查 CA 文件、服务器名称，以及服务器在此端口上是否使用 TLS</translation>
    </message>
    <message>
        <source>%1 closed the connection during setup: does it expect TLS, or a client certificate?</source>
        <translation>%1 在连接建立期间关闭了连接：它是否要求 TLS 或客户端证书？</translation>
    </message>
    <message>
        <source>TLS handshake with %1 failed: %2. The server may require a client certificate: check the certificate and key files</source>
        <translation>与 %1 的 TLS 握手失败：%2。服务器可能要求客户端证书：请检查证书和密钥文件</translation>
    </message>
    <message>
        <source>network error with %1: %2</source>
        <translation>与 %1 通信时网络出错：%2</translation>
    </message>
    <message>
        <source>%1; retry %2 in %3 s</source>
        <translation>%1；%3 秒后第 %2 次重试</translation>
    </message>
    <message>
        <source>no reply from %1 for %2 s: the server stopped answering (paused, overloaded or cut off by the network)</source>
        <translation>%1 已 %2 秒没有回复：服务器停止了应答（已暂停、过载或被网络切断）</translation>
    </message>
    <message>
        <source>no reply within the timeout</source>
        <translation>超时内没有应答</translation>
    </message>
    <message>
        <source>the connection was closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <source>disconnected from %1</source>
        <translation>与 %1 的连接已断开</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1; reconnecting, try again shortly</source>
        <translation>%1；正在重连，请稍后重试</translation>
    </message>
    <message>
        <source>not sent: could not connect to %1 in time</source>
        <translation>未发送：未能及时连接到 %1</translation>
    </message>
</context>
<context>
    <name>redis::LibraryList</name>
    <message>
        <source>a map (an even number of elements)</source>
        <translation>映射（偶数个元素）</translation>
    </message>
    <message>
        <source>unexpected FUNCTION LIST reply: %1</source>
        <translation>无法识别 FUNCTION LIST 的应答：%1</translation>
    </message>
</context>
<context>
    <name>redis::RedisError</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>outcome unknown (%1): %2; %3</source>
        <translation>结果未知（%1）：%2；%3</translation>
    </message>
    <message>
        <source>the command had been sent, so it may or may not have run</source>
        <translation>命令已经发出，因此它可能已执行，也可能没有执行</translation>
    </message>
    <message>
        <source>the reply was not understood, so the command may or may not have run</source>
        <translation>无法理解该应答，因此命令可能已执行，也可能没有执行</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>未发送</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>连接断开</translation>
    </message>
    <message>
        <source>I/O</source>
        <translation>I/O</translation>
    </message>
    <message>
        <source>protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>unexpected reply</source>
        <translation>意外应答</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>no reply</source>
        <translation>没有应答</translation>
    </message>
</context>
<context>
    <name>redis::Reply</name>
    <message>
        <source>expected %1, got %2</source>
        <translation>应为 %1，实际为 %2</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>an integer or a canonical integer string</source>
        <translation>整数或规范整数字符串</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>an array with an element at index %1</source>
        <translation>下标 %1 处有元素的数组</translation>
    </message>
    <message>
        <source>nil</source>
        <translation>空值（nil）</translation>
    </message>
    <message>
        <source>an integer %1</source>
        <translation>整数 %1</translation>
    </message>
    <message>
        <source>a bulk string %1</source>
        <translation>批量字符串 %1</translation>
    </message>
    <message>
        <source>a status %1</source>
        <translation>状态应答 %1</translation>
    </message>
    <message>
        <source>an error reply %1</source>
        <translation>错误应答 %1</translation>
    </message>
    <message>
        <source>an array of %1</source>
        <translation>含 %1 个元素的数组</translation>
    </message>
</context>
<context>
    <name>redis::ReplyShape</name>
    <message>
        <source>nil</source>
        <translation>空值（nil）</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a status line</source>
        <translation>状态行</translation>
    </message>
    <message>
        <source>an error</source>
        <translation>错误应答</translation>
    </message>
    <message>
        <source>an empty array</source>
        <translation>空数组</translation>
    </message>
    <message>
        <source>an array of 1 element</source>
        <translation>含 1 个元素的数组</translation>
    </message>
    <message>
        <source>an array of %1 elements</source>
        <translation>含 %1 个元素的数组</translation>
    </message>
</context>
<context>
    <name>sentinel::SentinelReplies</name>
    <message>
        <source>a host for %1</source>
        <translation>%1 的主机</translation>
    </message>
    <message>
        <source>a port from 1 to 65535 for %1</source>
        <translation>%1 的端口（1 到 65535）</translation>
    </message>
    <message>
        <source>nil or an array of a host and a port</source>
        <translation>空值（nil），或由主机和端口组成的数组</translation>
    </message>
    <message>
        <source>the primary</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>an array starting with the role&apos;s name</source>
        <translation>以角色名开头的数组</translation>
    </message>
    <message>
        <source>master, slave or sentinel</source>
        <translation>master、slave 或 sentinel</translation>
    </message>
    <message>
        <source>the replica&apos;s primary</source>
        <translation>副本的主节点</translation>
    </message>
    <message>
        <source>the master&apos;s field and value pairs</source>
        <translation>主节点的字段和值（成对）</translation>
    </message>
    <message>
        <source>a master with an ip, a port and a config-epoch</source>
        <translation>带 ip、port 和 config-epoch 的主节点</translation>
    </message>
    <message>
        <source>a config-epoch of 0 or more</source>
        <translation>大于等于 0 的 config-epoch</translation>
    </message>
    <message>
        <source>a replica&apos;s field and value pairs</source>
        <translation>副本的字段和值（成对）</translation>
    </message>
    <message>
        <source>a replica with an ip and a port</source>
        <translation>带 ip 和 port 的副本</translation>
    </message>
    <message>
        <source>a replica</source>
        <translation>副本</translation>
    </message>
</context>
<context>
    <name>sentinel::SentinelResolver</name>
    <message>
        <source>ROLE says it is a replica of %1</source>
        <translation>ROLE 显示它是 %1 的副本</translation>
    </message>
    <message>
        <source>ROLE says it is a sentinel</source>
        <translation>ROLE 显示它是哨兵</translation>
    </message>
    <message>
        <source>ROLE could not be read: %1</source>
        <translation>无法读取 ROLE：%1</translation>
    </message>
    <message>
        <source>could not connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>no primary of &apos;%1&apos; confirmed: the node named is not a primary (%2)</source>
        <translation>未能确认 &apos;%1&apos; 的主节点：被指名的节点不是主节点（%2）</translation>
    </message>
    <message>
        <source>no primary of &apos;%1&apos; confirmed: the node named could not be read (%2)</source>
        <translation>未能确认 &apos;%1&apos; 的主节点：无法读取被指名的节点（%2）</translation>
    </message>
    <message>
        <source>no sentinel knows a master named &apos;%1&apos;: check the name after &apos;#&apos; (SENTINEL MASTERS lists them)</source>
        <translation>没有哨兵知道名为 &apos;%1&apos; 的主节点：请检查 &apos;#&apos; 后的名称（SENTINEL MASTERS 可列出它们）</translation>
    </message>
    <message>
        <source>the sentinels refused the sentinel credentials (they are not the data node&apos;s: give the sentinel&apos;s own)</source>
        <translation>哨兵拒绝了哨兵凭据（它们不是数据节点的凭据：请填写哨兵自己的）</translation>
    </message>
    <message>
        <source>no sentinel that answered knows a master named &apos;%1&apos;</source>
        <translation>应答的哨兵都不知道名为 &apos;%1&apos; 的主节点</translation>
    </message>
    <message>
        <source>no sentinel answered the question about &apos;%1&apos; (are these sentinel ports?)</source>
        <translation>没有哨兵回答关于 &apos;%1&apos; 的询问（这些是哨兵端口吗？）</translation>
    </message>
    <message>
        <source>no sentinel could be reached</source>
        <translation>无法连接任何哨兵</translation>
    </message>
    <message>
        <source>%1. Sentinels: %2</source>
        <translation>%1。哨兵：%2</translation>
    </message>
    <message>
        <source>no sentinel listed the replicas of &apos;%1&apos;: %2</source>
        <translation>没有哨兵列出 &apos;%1&apos; 的副本：%2</translation>
    </message>
    <message>
        <source>%1 names %2 as the primary of &apos;%3&apos;</source>
        <translation>%1 指出 %2 是 &apos;%3&apos; 的主节点</translation>
    </message>
    <message>
        <source>%1 does not know the master &apos;%2&apos;</source>
        <translation>%1 不知道主节点 &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1 unreachable (%2)</source>
        <translation>%1 无法连接（%2）</translation>
    </message>
    <message>
        <source>%1 refused the sentinel credentials (%2)</source>
        <translation>%1 拒绝了哨兵凭据（%2）</translation>
    </message>
    <message>
        <source>%1 answered an error (%2)</source>
        <translation>%1 回答了错误（%2）</translation>
    </message>
    <message>
        <source>%1: config epoch not read (%2)</source>
        <translation>%1：未能读取配置纪元（%2）</translation>
    </message>
    <message>
        <source>%1 names %2 at config epoch %3</source>
        <translation>%1 在配置纪元 %3 指出 %2</translation>
    </message>
    <message>
        <source>not proven which node is the primary of &apos;%1&apos;: the sentinels name %2, each says master, and their configurations do not tell which is newer (%3); a failover may be under way, ask again in a few seconds. Sentinels: %4</source>
        <translation>无法证明哪个节点是 &apos;%1&apos; 的主节点：哨兵指出了 %2，它们都自称主节点，而哨兵的配置无法说明哪个更新（%3）；可能正在故障转移，请几秒后再问。哨兵：%4</translation>
    </message>
</context>
<context>
    <name>sentinel::SentinelUrl</name>
    <message>
        <source>write redis-sentinel://[user:password@]host[:port][,host2[:port2]...][/db]#master-name</source>
        <translation>请写成 redis-sentinel://[user:password@]host[:port][,host2[:port2]...][/db]#master-name</translation>
    </message>
    <message>
        <source>%1 in the host list is empty: %2</source>
        <translation>主机列表中的%1为空：%2</translation>
    </message>
    <message>
        <source>%1: an IPv6 address goes in brackets, as in [::1]:26379</source>
        <translation>%1：IPv6 地址要放在方括号中，例如 [::1]:26379</translation>
    </message>
    <message>
        <source>%1: write [address]:port</source>
        <translation>%1：请写成 [address]:port</translation>
    </message>
    <message>
        <source>%1 has no host before its port</source>
        <translation>%1 的端口前没有主机</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a host name or an IP address</source>
        <translation>%1：&apos;%2&apos; 不是主机名或 IP 地址</translation>
    </message>
    <message>
        <source>%1 (%2): the port must be a number from 1 to 65535</source>
        <translation>%1（%2）：端口必须是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>the text before &apos;@&apos; has no &apos;:&apos;: write user:password@ or :password@ (a lone word could be either)</source>
        <translation>&apos;@&apos; 前的文字没有 &apos;:&apos;：请写成 user:password@ 或 :password@（单独一个词可能是其中任一个）</translation>
    </message>
    <message>
        <source>invalid percent-encoding in the user name</source>
        <translation>用户名中的百分号编码无效</translation>
    </message>
    <message>
        <source>invalid percent-encoding in the password (write a &apos;%&apos; as %25)</source>
        <translation>密码中的百分号编码无效（&apos;%&apos; 请写成 %25）</translation>
    </message>
    <message>
        <source>the user name must not contain spaces</source>
        <translation>用户名不能包含空格</translation>
    </message>
    <message>
        <source>%1 sentinels given: at most %2 are read (a deployment runs three or five)</source>
        <translation>给出了 %1 个哨兵：最多读取 %2 个（部署通常运行三个或五个）</translation>
    </message>
    <message>
        <source>sentinel %1</source>
        <translation>第 %1 个哨兵</translation>
    </message>
    <message>
        <source>%1 (%2) is listed twice</source>
        <translation>%1（%2）列出了两次</translation>
    </message>
    <message>
        <source>the URL names no sentinel: %1</source>
        <translation>URL 中没有哨兵：%1</translation>
    </message>
    <message>
        <source>invalid percent-encoding in the parameter %1</source>
        <translation>参数 %1 中的百分号编码无效</translation>
    </message>
    <message>
        <source>%1: the database must be a number from 0 to 65535</source>
        <translation>%1：数据库必须是 0 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>unknown parameter &apos;%1&apos;: the query may hold sentinelMasterId and database (or db)</source>
        <translation>未知参数 &apos;%1&apos;：查询部分只能包含 sentinelMasterId 和 database（或 db）</translation>
    </message>
    <message>
        <source>invalid percent-encoding in the master name</source>
        <translation>主节点名称中的百分号编码无效</translation>
    </message>
    <message>
        <source>two master names: #%1 and sentinelMasterId=%2; give one</source>
        <translation>有两个主节点名称：#%1 和 sentinelMasterId=%2；请只给一个</translation>
    </message>
    <message>
        <source>no master name: end the URL with #master-name, the name the sentinels monitor (as in redis-sentinel://host:26379#mymaster)</source>
        <translation>没有主节点名称：请在 URL 末尾加上 #master-name，即哨兵监控的名称（例如 redis-sentinel://host:26379#mymaster）</translation>
    </message>
    <message>
        <source>the master name must be 1 to 200 characters without spaces or control characters</source>
        <translation>主节点名称必须是 1 到 200 个字符，不含空格或控制字符</translation>
    </message>
    <message>
        <source>no sentinel is given: list them as host[:port], 26379 by default</source>
        <translation>没有给出哨兵：请按 host[:port] 列出，默认端口 26379</translation>
    </message>
    <message>
        <source>not a sentinel URL: %1</source>
        <translation>不是哨兵 URL：%1</translation>
    </message>
    <message>
        <source>&apos;/%1&apos; is not a database number (0 to 65535); the master name goes after &apos;#&apos;, as in ...:26379/0#%1</source>
        <translation>&apos;/%1&apos; 不是数据库编号（0 到 65535）；主节点名称应写在 &apos;#&apos; 之后，例如 ...:26379/0#%1</translation>
    </message>
</context>
<context>
    <name>session::ConsoleSession</name>
    <message>
        <source>the session does not follow Sentinel</source>
        <translation>此会话不跟随哨兵</translation>
    </message>
    <message>
        <source>SENTINEL REPLICAS could not be read: %1</source>
        <translation>无法读取 SENTINEL REPLICAS：%1</translation>
    </message>
</context>
<context>
    <name>session::ProbeFailure</name>
    <message>
        <source>the connection failed</source>
        <translation>连接失败</translation>
    </message>
    <message>
        <source>%1; TLS is on: check that the server speaks TLS on this port (redis:// for plain text)</source>
        <translation>%1；已启用 TLS：请检查服务器在此端口上是否使用 TLS（明文请用 redis://）</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>probe: wrong number of replies</source>
        <translation>探测：应答数量不对</translation>
    </message>
</context>
<context>
    <name>session::ProbeReport</name>
    <message>
        <source>&apos;%1&apos; may call %2</source>
        <translation>“%1”可以调用 %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; may load function libraries</source>
        <translation>“%1”可以加载函数库</translation>
    </message>
    <message>
        <source>&apos;%1&apos; may read function libraries (FUNCTION LIST)</source>
        <translation>“%1”可以读取函数库（FUNCTION LIST）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; may back up function libraries (FUNCTION DUMP)</source>
        <translation>“%1”可以备份函数库（FUNCTION DUMP）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; may roll back a dump (FUNCTION RESTORE)</source>
        <translation>“%1”可以回滚到一份转储（FUNCTION RESTORE）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; may %2</source>
        <translation>“%1”可以%2</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>unexpected ACL DRYRUN reply</source>
        <translation>意外的 ACL DRYRUN 答复</translation>
    </message>
    <message>
        <source>this connection&apos;s user may not run ACL DRYRUN</source>
        <translation>此连接的用户无权运行 ACL DRYRUN</translation>
    </message>
    <message>
        <source>there is no ACL user &apos;%1&apos; on this server</source>
        <translation>此服务器上没有 ACL 用户“%1”</translation>
    </message>
    <message>
        <source>this server has no ACL DRYRUN (Redis 7.0 or later)</source>
        <translation>此服务器没有 ACL DRYRUN（需要 Redis 7.0 或更高版本）</translation>
    </message>
    <message>
        <source>ACL DRYRUN failed: %1</source>
        <translation>ACL DRYRUN 失败：%1</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>%1 at %2 (TLS)</source>
        <translation>%1，位于 %2（TLS）</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>primary</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>replica</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>unknown (%1)</source>
        <translation>未知（%1）</translation>
    </message>
    <message>
        <source>%1, not &apos;%2&apos;: without a password the console does not authenticate</source>
        <translation>%1，而不是“%2”：没有密码时控制台不进行认证</translation>
    </message>
    <message>
        <source>Release user</source>
        <translation>发布用户</translation>
    </message>
    <message>
        <source>%1: logged in</source>
        <translation>%1：已登录</translation>
    </message>
    <message>
        <source>Eviction</source>
        <translation>驱逐</translation>
    </message>
    <message>
        <source>%1: receipts can be evicted before their TTL ends</source>
        <translation>%1：回执可能在 TTL 结束前被驱逐</translation>
    </message>
    <message>
        <source>%1 (loads run as &apos;%2&apos;)</source>
        <translation>%1（加载以“%2”身份运行）</translation>
    </message>
    <message>
        <source>the server says the connection is user &apos;%1&apos;</source>
        <translation>服务器说此连接的用户是“%1”</translation>
    </message>
    <message>
        <source>host not found</source>
        <translation>找不到主机</translation>
    </message>
    <message>
        <source>could not look up the host name</source>
        <translation>无法查询主机名</translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>no answer in time</source>
        <translation>未及时答复</translation>
    </message>
    <message>
        <source>wrong user name or password</source>
        <translation>用户名或密码错误</translation>
    </message>
    <message>
        <source>a password is required</source>
        <translation>需要密码</translation>
    </message>
    <message>
        <source>TLS failed</source>
        <translation>TLS 失败</translation>
    </message>
    <message>
        <source>not a Redis answer</source>
        <translation>不是 Redis 的答复</translation>
    </message>
    <message>
        <source>refused by the server</source>
        <translation>被服务器拒绝</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>ssh::SshError</name>
    <message>
        <source>jump host %1</source>
        <translation>跳板机 %1</translation>
    </message>
    <message>
        <source>bastion %1</source>
        <translation>堡垒机 %1</translation>
    </message>
    <message>
        <source>The %1 offered a different host key (%2 %3) than the one trusted before. Someone may be intercepting the connection, or the host was reinstalled: ask its administrator for the new fingerprint before going on.</source>
        <translation>%1 提供的主机密钥（%2 %3）与之前信任的不同。可能有人在截获连接，或者该主机已重装：继续之前，请向其管理员索取新的指纹。</translation>
    </message>
    <message>
        <source>The %1 offered a host key the console does not know (%2 %3). Compare this fingerprint with one obtained from the host&apos;s administrator, then trust it, or stop.</source>
        <translation>%1 提供了控制台不认识的主机密钥（%2 %3）。请把此指纹与从主机管理员处获得的指纹比较，然后信任它，或者停止。</translation>
    </message>
    <message>
        <source>The SSH server refused every key offered. Check the user name, that the public key is in the server&apos;s authorized_keys, and that the key is loaded in ssh-agent (ssh-add) or named as the identity file; a key with a passphrase must be in the agent.</source>
        <translation>SSH 服务器拒绝了提供的每一个密钥。请检查用户名、公钥是否在服务器的 authorized_keys 中，以及密钥是否已加载到 ssh-agent（ssh-add）或被指定为身份文件；带口令的密钥必须在 agent 中。</translation>
    </message>
    <message>
        <source>The passphrase given for the identity file is wrong.</source>
        <translation>为身份文件提供的口令不正确。</translation>
    </message>
    <message>
        <source>The identity file is readable by others, so ssh ignored it: chmod 600 it.</source>
        <translation>身份文件可被他人读取，因此 ssh 忽略了它：请对它执行 chmod 600。</translation>
    </message>
    <message>
        <source>Nothing accepts SSH connections at that address and port: check the bastion&apos;s host and port.</source>
        <translation>该地址和端口上没有接受 SSH 连接的服务：请检查堡垒机的主机和端口。</translation>
    </message>
    <message>
        <source>The SSH server did not answer in time: check the address, the VPN or firewall, or raise the connect timeout.</source>
        <translation>SSH 服务器未及时应答：请检查地址、VPN 或防火墙，或调大连接超时。</translation>
    </message>
    <message>
        <source>The bastion cannot be reached from this machine (no route, or its name is unknown): check the host and the network.</source>
        <translation>从本机无法到达堡垒机（没有路由，或其名称未知）：请检查主机和网络。</translation>
    </message>
    <message>
        <source>The connection closed before SSH began: the port may not be an SSH server&apos;s, or a jump host failed (see the details).</source>
        <translation>连接在 SSH 开始前就关闭了：该端口可能不是 SSH 服务器的，或跳板机出错（见详细信息）。</translation>
    </message>
    <message>
        <source>ssh could not open the tunnel (see the details).</source>
        <translation>ssh 无法打开隧道（见详细信息）。</translation>
    </message>
    <message>
        <source>The connection goes through the jump host %1.</source>
        <translation>连接经过跳板机 %1。</translation>
    </message>
</context>
<context>
    <name>ssh::SshTarget</name>
    <message>
        <source>the host is empty</source>
        <translation>主机为空</translation>
    </message>
    <message>
        <source>the host &quot;%1&quot; begins with &apos;-&apos; (ssh would read it as an option)</source>
        <translation>主机 &quot;%1&quot; 以 &apos;-&apos; 开头（ssh 会把它当作选项）</translation>
    </message>
    <message>
        <source>the host contains a space or a control character</source>
        <translation>主机包含空格或控制字符</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an IPv6 address</source>
        <translation>&quot;%1&quot; 不是 IPv6 地址</translation>
    </message>
    <message>
        <source>the host &quot;%1&quot; contains &apos;%2&apos;: only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos; are allowed in a host name</source>
        <translation>主机 &quot;%1&quot; 包含 &apos;%2&apos;：主机名中只允许字母、数字、&apos;.&apos;、&apos;-&apos; 和 &apos;_&apos;</translation>
    </message>
    <message>
        <source>the host name is longer than 253 characters</source>
        <translation>主机名超过 253 个字符</translation>
    </message>
    <message>
        <source>the user &quot;%1&quot; begins with &apos;-&apos; (ssh would read it as an option)</source>
        <translation>用户 &quot;%1&quot; 以 &apos;-&apos; 开头（ssh 会把它当作选项）</translation>
    </message>
    <message>
        <source>the user name contains &apos;%1&apos;: only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos; are allowed</source>
        <translation>用户名包含 &apos;%1&apos;：只允许字母、数字、&apos;.&apos;、&apos;-&apos; 和 &apos;_&apos;</translation>
    </message>
    <message>
        <source>a space or control character</source>
        <translation>空格或控制字符</translation>
    </message>
    <message>
        <source>the user name is longer than 64 characters</source>
        <translation>用户名超过 64 个字符</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot;: %3. Write it as user@host[:port].</source>
        <translation>%1 &quot;%2&quot;：%3。请写成 user@host[:port]。</translation>
    </message>
    <message>
        <source>the %1 is empty: write it as user@host[:port]</source>
        <translation>%1为空：请写成 user@host[:port]</translation>
    </message>
    <message>
        <source>it contains a space or a control character</source>
        <translation>其中包含空格或控制字符</translation>
    </message>
    <message>
        <source>the user before &apos;@&apos; is empty</source>
        <translation>&apos;@&apos; 前的用户为空</translation>
    </message>
    <message>
        <source>&apos;[&apos; without &apos;]&apos;</source>
        <translation>有 &apos;[&apos; 但没有 &apos;]&apos;</translation>
    </message>
    <message>
        <source>only &quot;:port&quot; may follow &apos;]&apos;</source>
        <translation>&apos;]&apos; 后只能跟 &quot;:port&quot;</translation>
    </message>
    <message>
        <source>the port after &apos;:&apos; is empty</source>
        <translation>&apos;:&apos; 后的端口为空</translation>
    </message>
    <message>
        <source>brackets are for IPv6 addresses</source>
        <translation>方括号只用于 IPv6 地址</translation>
    </message>
    <message>
        <source>the port &quot;%1&quot; is not a number from 1 to 65535</source>
        <translation>端口 &quot;%1&quot; 不是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>the identity file&apos;s name contains a line break, &apos;&quot;&apos; or &apos;%&apos; (ssh&apos;s configuration cannot name it): rename or link it</source>
        <translation>身份文件的名称包含换行、&apos;&quot;&apos; 或 &apos;%&apos;（ssh 配置无法表示）：请重命名或建立链接</translation>
    </message>
    <message>
        <source>the identity file %1 does not exist</source>
        <translation>身份文件 %1 不存在</translation>
    </message>
    <message>
        <source>the identity file %1 is not a regular file (a directory, FIFO or device is refused)</source>
        <translation>身份文件 %1 不是普通文件（目录、FIFO 或设备文件都会被拒绝）</translation>
    </message>
    <message>
        <source>the identity file %1 cannot be read by this user</source>
        <translation>当前用户无法读取身份文件 %1</translation>
    </message>
    <message>
        <source>bastion</source>
        <translation>堡垒机</translation>
    </message>
    <message>
        <source>jump host</source>
        <translation>跳板机</translation>
    </message>
</context>
<context>
    <name>ssh::SshTunnel</name>
    <message>
        <source>The ssh client is not installed: install OpenSSH&apos;s client (Debian: sudo apt-get install openssh-client) and try again.</source>
        <translation>未安装 ssh 客户端：请安装 OpenSSH 客户端（Debian：sudo apt-get install openssh-client）后重试。</translation>
    </message>
    <message>
        <source>The SSH connection was not up within %1 s: check the bastion, or raise the connect timeout.</source>
        <translation>SSH 连接未在 %1 秒内建立：请检查堡垒机，或调大连接超时。</translation>
    </message>
    <message>
        <source>%1: set XDG_RUNTIME_DIR or TMPDIR to a directory of your own.</source>
        <translation>%1：请把 XDG_RUNTIME_DIR 或 TMPDIR 设为你自己的目录。</translation>
    </message>
    <message>
        <source>The data directory&apos;s path contains &apos;&quot;&apos; or a line break, which an ssh configuration cannot name: set INVENTORY_DATA_DIR to another directory.</source>
        <translation>数据目录的路径包含 &apos;&quot;&apos; 或换行，ssh 配置无法表示：请把 INVENTORY_DATA_DIR 设为其他目录。</translation>
    </message>
    <message>
        <source>The passphrase helper inventory-ssh-askpass was not found next to the program or in $INVENTORY_SSH_ASKPASS: reinstall the console, or load the key into ssh-agent (ssh-add).</source>
        <translation>在程序旁或 $INVENTORY_SSH_ASKPASS 中找不到口令助手 inventory-ssh-askpass：请重新安装控制台，或把密钥加载到 ssh-agent（ssh-add）。</translation>
    </message>
    <message>
        <source>The passphrase channel could not listen: %1</source>
        <translation>口令通道无法监听：%1</translation>
    </message>
    <message>
        <source>ssh was given the identity file&apos;s passphrase: check that it is the right one.</source>
        <translation>已向 ssh 提供身份文件的口令：请确认它是正确的。</translation>
    </message>
    <message>
        <source>Trusted before: %1; offered now: %2.</source>
        <translation>之前信任的：%1；现在提供的：%2。</translation>
    </message>
    <message>
        <source>(unreadable)</source>
        <translation>（无法读取）</translation>
    </message>
    <message>
        <source>The SSH tunnel to %1 closed (ssh exited with %2): the bastion went away or ssh was stopped. Commands in flight have an unknown outcome; reconnect to open it again.</source>
        <translation>到 %1 的 SSH 隧道已关闭（ssh 以 %2 退出）：堡垒机已断开或 ssh 被停止。进行中的命令结果未知；请重新连接以再次打开隧道。</translation>
    </message>
    <message>
        <source>a signal</source>
        <translation>信号</translation>
    </message>
    <message>
        <source>The SSH tunnel is not up: open it before forwarding.</source>
        <translation>SSH 隧道未建立：请先打开隧道再转发。</translation>
    </message>
    <message>
        <source>Cannot forward to &quot;%1&quot; port %2: %3</source>
        <translation>无法转发到 &quot;%1&quot; 的端口 %2：%3</translation>
    </message>
    <message>
        <source>the port is 0</source>
        <translation>端口为 0</translation>
    </message>
    <message>
        <source>The SSH master could not forward a local port to %1: %2</source>
        <translation>SSH 主连接无法把本地端口转发到 %1：%2</translation>
    </message>
    <message>
        <source>The host key could not be read again: %1</source>
        <translation>无法再次读取主机密钥：%1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a SHA256 fingerprint: copy it whole, as SHA256: and 43 characters.</source>
        <translation>&quot;%1&quot; 不是 SHA256 指纹：请完整复制，即 SHA256: 加 43 个字符。</translation>
    </message>
    <message>
        <source>The host key changed since it was trusted; this profile does not allow replacing it. Ask the host&apos;s administrator, and remove the old key from %1 by hand if the change is expected.</source>
        <translation>主机密钥在信任后已变化；此配置不允许替换它。请询问主机管理员；如果变化是预期的，请手动从 %1 中删除旧密钥。</translation>
    </message>
    <message>
        <source>The tunnel is open: its host key is trusted already.</source>
        <translation>隧道已打开：其主机密钥已被信任。</translation>
    </message>
    <message>
        <source>%1 offers the key %2, not %3: nothing was trusted. Check the fingerprint with the host&apos;s administrator.</source>
        <translation>%1 提供的密钥是 %2，而不是 %3：未信任任何密钥。请与主机管理员核对指纹。</translation>
    </message>
    <message>
        <source>The host offered no key.</source>
        <translation>主机没有提供密钥。</translation>
    </message>
</context>
<context>
    <name>ui::AnomalyView</name>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>every anomaly</source>
        <translation>全部异常</translation>
    </message>
    <message>
        <source>Double-click a row to show its SKU.</source>
        <translation>双击一行可显示其 SKU。</translation>
    </message>
</context>
<context>
    <name>ui::AuditRecordDetail</name>
    <message>
        <source>Select a record to see its whole command and result.</source>
        <translation>选中一条记录可查看其完整命令和结果。</translation>
    </message>
    <message>
        <source>SERVER CHANGED SINCE: %1</source>
        <translation>此后服务器已变化：%1</translation>
    </message>
    <message>
        <source>One deduction in %1 writes: the server did not have the script (NOSCRIPT proves it did not run), so the console loaded it and sent the same EVALSHA again. This is not a business retry.</source>
        <translation>一次扣减用了 %1 次写入：服务器上没有该脚本（NOSCRIPT 证明它没有执行），控制台加载脚本后再次发送了同一条 EVALSHA。这不是业务重试。</translation>
    </message>
    <message>
        <source>step %1  %2  %3
        → %4</source>
        <translation>第 %1 步  %2  %3
        → %4</translation>
    </message>
    <message>
        <source>The last step in full:</source>
        <translation>最后一步的完整内容：</translation>
    </message>
    <message>
        <source>Lua source sent (%1 lines, %2 bytes)</source>
        <translation>已发送的 Lua 源码（%1 行，%2 字节）</translation>
    </message>
</context>
<context>
    <name>ui::AuditViewerPanel</name>
    <message>
        <source>Filter: key, order, result, profile, server, user…</source>
        <translation>筛选：键、订单、结果、配置、服务器、用户…</translation>
    </message>
    <message>
        <source>Outcome unknown only</source>
        <translation>仅显示结果未知</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export JSON lines…</source>
        <translation>导出 JSON lines…</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Show all orders</source>
        <translation>显示全部订单</translation>
    </message>
    <message>
        <source>Reading the audit log… %p%</source>
        <translation>正在读取审计日志… %p%</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop reading; the writes read so far (the oldest) are shown, and Reload reads the rest.</source>
        <translation>停止读取；显示目前已读到的写入（最早的那些），“重新加载”会读取其余部分。</translation>
    </message>
    <message>
        <source>Reading the audit log… %1 of %2 MB</source>
        <translation>正在读取审计日志… %1 / %2 MB</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Reading stopped: the oldest %1 writes are shown, %2 MB of the log are not read yet. Reload reads the rest.</source>
        <translation>读取已停止：显示最早的 %1 次写入，日志中还有 %2 MB 未读取。“重新加载”会读取其余部分。</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… 另有 %1 条</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) of the audit log could not be read yet (a truncated last line usually means the machine lost power while writing):</source>
        <translation>
            <numerusform>审计日志中有 %n 行暂时无法读取（最后一行被截断通常表示写入时机器断电）：</numerusform>
        </translation>
    </message>
    <message>
        <source>All actions</source>
        <translation>全部操作</translation>
    </message>
    <message>
        <source> (run_id changed since)</source>
        <translation>（此后 run_id 已变化）</translation>
    </message>
    <message>
        <source>Showing the writes of order %1 of SKU %2</source>
        <translation>显示 SKU %2 的订单 %1 的写入</translation>
    </message>
    <message>
        <source>(any)</source>
        <translation>（任意）</translation>
    </message>
    <message>
        <source>%1 of %2 writes shown</source>
        <translation>显示 %1 / %2 次写入</translation>
    </message>
    <message>
        <source>No write of order %1 is in this audit log: it holds only what this console and inventory-cli sent from this machine, not other clients&apos; writes (nor the demo&apos;s seed data)</source>
        <translation>本审计日志中没有订单 %1 的写入：它只包含本机上本控制台和 inventory-cli 发送的内容，不包含其他客户端的写入（也不包含演示的种子数据）</translation>
    </message>
    <message numerus="yes">
        <source>  ·  %n with no outcome recorded (the console stopped before the reply)</source>
        <translation>
            <numerusform>  ·  %n 次没有记录结果（控制台在应答前停止了）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  ·  %n written on a server process that no longer answers there (restarted or failed over: run_id changed): its receipts may be gone</source>
        <translation>
            <numerusform>  ·  %n 次写入所在的服务器进程已不在该地址应答（已重启或故障转移：run_id 已变化）：其回执可能已丢失</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export audit records as CSV</source>
        <translation>将审计记录导出为 CSV</translation>
    </message>
    <message>
        <source>Export audit records as JSON lines</source>
        <translation>将审计记录导出为 JSON lines</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON lines (*.jsonl)</source>
        <translation>JSON lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported %1 records to %2</source>
        <translation>已将 %1 条记录导出到 %2</translation>
    </message>
</context>
<context>
    <name>ui::BackupPage</name>
    <message>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Step 4 of 6 · Backup</source>
        <translation>第 4 步，共 6 步 · 备份</translation>
    </message>
    <message>
        <source>Before anything changes, the code of every library and a full FUNCTION DUMP of every node are saved to a file: the way back. Read as %1.</source>
        <translation>在任何改动之前，每个函数库的代码和每个节点的完整 FUNCTION DUMP 都会保存到一个文件中：这是回退的途径。以 %1 的身份读取。</translation>
    </message>
    <message>
        <source>Backup file</source>
        <translation>备份文件</translation>
    </message>
    <message>
        <source>Backup file:</source>
        <translation>备份文件：</translation>
    </message>
    <message>
        <source>Contents:</source>
        <translation>内容：</translation>
    </message>
    <message>
        <source>To go back:</source>
        <translation>如何回退：</translation>
    </message>
    <message>
        <source>Reading the libraries and the dump as user &apos;%1&apos;…</source>
        <translation>正在以用户“%1”读取函数库和转储…</translation>
    </message>
    <message>
        <source>No backup, so no change: %1</source>
        <translation>没有备份，因此不做改动：%1</translation>
    </message>
    <message>
        <source>%1 (Redis %2): %3; FUNCTION DUMP of %4</source>
        <translation>%1 (Redis %2)：%3；%4 的 FUNCTION DUMP</translation>
    </message>
    <message>
        <source>no libraries</source>
        <translation>没有函数库</translation>
    </message>
    <message>
        <source>Libraries ▸ Roll back… and choose %1, or run this command:</source>
        <translation>“函数库 ▸ 回滚…”并选择 %1，或运行此命令：</translation>
    </message>
    <message>
        <source>Backup written (%1), read as user &apos;%2&apos;.</source>
        <translation>备份已写入 (%1)，以用户“%2”读取。</translation>
    </message>
</context>
<context>
    <name>ui::BrowserPanel</name>
    <message>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Read every stock key and receipt again (SCAN, never KEYS)</source>
        <translation>重新读取每个库存键和回执（使用 SCAN，从不用 KEYS）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>not scanned yet</source>
        <translation>尚未扫描</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the table of the current tab, as filtered and sorted</source>
        <translation>保存当前页的表格（按当前筛选和排序）</translation>
    </message>
    <message>
        <source>Expiry warning: </source>
        <translation>过期提醒：</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>No expiry warning</source>
        <translation>不提醒过期</translation>
    </message>
    <message>
        <source>A receipt about to expire is flagged: after it expires, a retry of its order deducts again. 0: no warning.</source>
        <translation>即将过期的回执会被标出：回执过期后，重试其订单会再次扣减。0：不提醒。</translation>
    </message>
    <message>
        <source>Stock &amp;&amp; receipts</source>
        <translation>库存与回执</translation>
    </message>
    <message>
        <source>Order lookup</source>
        <translation>订单查询</translation>
    </message>
    <message>
        <source>All keys</source>
        <translation>全部键</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>Refresh failed: %1</source>
        <translation>刷新失败：%1</translation>
    </message>
    <message>
        <source>scanning: %1 of %2 keys</source>
        <translation>正在扫描：%1 / %2 个键</translation>
    </message>
    <message>
        <source>scanning: %1 keys</source>
        <translation>正在扫描：%1 个键</translation>
    </message>
    <message>
        <source>Rescan</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>scanned %1 keys in %2 s</source>
        <translation>%2 秒内扫描了 %1 个键</translation>
    </message>
    <message>
        <source>incomplete: %1 keys could not be read</source>
        <translation>不完整：%1 个键无法读取</translation>
    </message>
    <message>
        <source>incomplete: %1 keys, a node failed</source>
        <translation>不完整：%1 个键，有节点失败</translation>
    </message>
    <message>
        <source>stopped at %1 keys</source>
        <translation>已在 %1 个键处停止</translation>
    </message>
    <message>
        <source>Scan complete.</source>
        <translation>扫描完成。</translation>
    </message>
    <message>
        <source>Scan stopped: the views show what was read.</source>
        <translation>扫描已停止：视图显示已读取的内容。</translation>
    </message>
    <message>
        <source>Scan incomplete: %1.</source>
        <translation>扫描不完整：%1。</translation>
    </message>
    <message>
        <source>Scan failed: %1</source>
        <translation>扫描失败：%1</translation>
    </message>
    <message>
        <source>Key actions are not available in this session</source>
        <translation>本会话不提供键操作</translation>
    </message>
    <message>
        <source>Finding out whether the server is a cluster before scanning…</source>
        <translation>扫描前正在确认服务器是否为集群…</translation>
    </message>
    <message>
        <source>Scanning stock keys and receipts…</source>
        <translation>正在扫描库存键和回执…</translation>
    </message>
    <message>
        <source>%1 SKUs, %2 receipts so far</source>
        <translation>目前 %1 个 SKU，%2 条回执</translation>
    </message>
    <message>
        <source>%1 SKUs, %2 receipts, %3 anomalies</source>
        <translation>%1 个 SKU，%2 条回执，%3 个异常</translation>
    </message>
    <message>
        <source>Anomalies (%1)</source>
        <translation>异常 (%1)</translation>
    </message>
    <message>
        <source>Another key action is still running.</source>
        <translation>另一个键操作仍在运行。</translation>
    </message>
    <message>
        <source>It goes through this session&apos;s write gate and is recorded in the audit log.</source>
        <translation>它经过本会话的写入闸门，并记录在审计日志中。</translation>
    </message>
    <message>
        <source>Sending: %1</source>
        <translation>正在发送：%1</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source> (WARNING: the audit record could not be written: %1)</source>
        <translation>（警告：审计记录无法写入：%1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 FAILED&lt;/b&gt; after %2: %3</source>
        <translation>&lt;b&gt;%1 失败&lt;/b&gt;，耗时 %2：%3</translation>
    </message>
    <message>
        <source>%1 done, %2</source>
        <translation>%1 已完成，%2</translation>
    </message>
    <message>
        <source>%1 %2 %, %3</source>
        <translation>%1 %2 %，%3</translation>
    </message>
    <message>
        <source>Cluster, %1 primaries: </source>
        <translation>集群，%1 个主节点：</translation>
    </message>
</context>
<context>
    <name>ui::ChartPanel</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Stop following new samples (they are still kept)</source>
        <translation>停止跟随新采样（采样仍会保留）</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Follow the latest samples again. Drag across the chart to zoom to a range; right-click zooms out.</source>
        <translation>重新跟随最新采样。在图表上拖动可放大到某个区间；右键缩小。</translation>
    </message>
    <message>
        <source>Save PNG…</source>
        <translation>保存 PNG…</translation>
    </message>
    <message>
        <source>Save this chart as an image</source>
        <translation>将此图表保存为图片</translation>
    </message>
    <message>
        <source>Save CSV…</source>
        <translation>保存 CSV…</translation>
    </message>
    <message>
        <source>Save the values this chart draws as CSV</source>
        <translation>将此图表绘制的数值保存为 CSV</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Save chart as PNG</source>
        <translation>将图表保存为 PNG</translation>
    </message>
    <message>
        <source>Save chart data as CSV</source>
        <translation>将图表数据保存为 CSV</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Could not save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>%1 could not be written. Choose a folder you may write to and try again.</source>
        <translation>无法写入 %1。请选择一个有写权限的文件夹后重试。</translation>
    </message>
</context>
<context>
    <name>ui::ChartView</name>
    <message>
        <source>%1 · %2: %3 %4</source>
        <translation>%1 · %2：%3 %4</translation>
    </message>
</context>
<context>
    <name>ui::ChartsTab</name>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Slow log</source>
        <translation>慢日志</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>Outcomes</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Receipt expiry</source>
        <translation>回执过期</translation>
    </message>
</context>
<context>
    <name>ui::ClusterForm</name>
    <message>
        <source>A cluster is found from any of its nodes, a server&apos;s replicas from the server; nothing to set here when the addresses they announce can be reached from this machine. Behind NAT, in containers or with cluster-announce-hostname or replica-announce-ip they may not be: map each announced address to one that can be reached, one a line, e.g. &lt;tt&gt;10.0.0.5:6379 = 127.0.0.1:7001&lt;/tt&gt;, or a host alone to keep the port: &lt;tt&gt;redis-node-1 = 127.0.0.1&lt;/tt&gt;.</source>
        <translation>集群可以从它的任意节点找到，服务器的副本可以从该服务器找到；如果它们公布的地址从本机可以访问，这里无需设置。在 NAT 之后、容器中，或使用 cluster-announce-hostname、replica-announce-ip 时可能无法访问：请把每个公布的地址映射到一个可访问的地址，每行一个，例如 &lt;tt&gt;10.0.0.5:6379 = 127.0.0.1:7001&lt;/tt&gt;；或只写主机以保留端口：&lt;tt&gt;redis-node-1 = 127.0.0.1&lt;/tt&gt;。</translation>
    </message>
    <message>
        <source>announced host:port = reachable host:port</source>
        <translation>公布的 host:port = 可访问的 host:port</translation>
    </message>
    <message>
        <source>Announced addresses:</source>
        <translation>公布的地址：</translation>
    </message>
    <message>
        <source>No mapping: the announced addresses are used.</source>
        <translation>无映射：使用公布的地址。</translation>
    </message>
    <message>
        <source>1 address mapped.</source>
        <translation>已映射 1 个地址。</translation>
    </message>
    <message>
        <source>%1 addresses mapped.</source>
        <translation>已映射 %1 个地址。</translation>
    </message>
</context>
<context>
    <name>ui::ClusterNodesBox</name>
    <message>
        <source>Cluster nodes</source>
        <translation>集群节点</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Slots</source>
        <translation>槽</translation>
    </message>
    <message>
        <source>Memory used</source>
        <translation>已用内存</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Libraries (release)</source>
        <translation>函数库（版本）</translation>
    </message>
    <message>
        <source>DBSIZE of the node</source>
        <translation>节点的 DBSIZE</translation>
    </message>
    <message>
        <source>FUNCTION LIST of the node: each library&apos;s name, its &quot;-- version:&quot; line and the start of its code&apos;s SHA-256. Redis does not copy libraries between primaries: each one is loaded on its own.</source>
        <translation>节点的 FUNCTION LIST：每个函数库的名称、它的“-- version:”行及其代码 SHA-256 的开头。Redis 不会在主节点之间复制函数库：每个主节点都要单独加载。</translation>
    </message>
    <message>
        <source>FUNCTION LIST not allowed for this user</source>
        <translation>此用户不允许执行 FUNCTION LIST</translation>
    </message>
    <message>
        <source>unknown: %1</source>
        <translation>未知：%1</translation>
    </message>
    <message>
        <source>none loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2 (%3)</translation>
    </message>
    <message>
        <source>Cluster nodes: %1 primaries, %2 replicas (the cards above describe %3, the node this connection names)</source>
        <translation>集群节点：%1 个主节点，%2 个副本（上面的卡片描述的是 %3，即本连接指定的节点）</translation>
    </message>
    <message>
        <source>Announced as %1</source>
        <translation>公布为 %1</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>not reachable: %1</source>
        <translation>无法访问：%1</translation>
    </message>
</context>
<context>
    <name>ui::CodeDiffView</name>
    <message>
        <source>Side by side</source>
        <translation>并排</translation>
    </message>
    <message>
        <source>Unified</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>上一处变更</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>下一处变更</translation>
    </message>
    <message>
        <source>Before: %1</source>
        <translation>之前：%1</translation>
    </message>
    <message>
        <source>After: %1</source>
        <translation>之后：%1</translation>
    </message>
    <message>
        <source>The code is identical: nothing to load.</source>
        <translation>代码完全相同：无需加载。</translation>
    </message>
    <message>
        <source>%1 lines added, %2 removed (edited lines count as both)</source>
        <translation>新增 %1 行，删除 %2 行（修改的行同时计入两者）</translation>
    </message>
    <message>
        <source>(no difference)</source>
        <translation>（无差异）</translation>
    </message>
</context>
<context>
    <name>ui::CommandField</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Copy the command to the clipboard</source>
        <translation>将命令复制到剪贴板</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>ui::ConfirmDeductionDialog</name>
    <message>
        <source>Confirm deduction</source>
        <translation>确认扣减</translation>
    </message>
    <message>
        <source>Retry with the same order id</source>
        <translation>用同一订单号重试</translation>
    </message>
    <message>
        <source>Retry the script: may deduct twice</source>
        <translation>重试脚本：可能重复扣减</translation>
    </message>
    <message>
        <source>The same call again, with the same order id. If the first call did deduct and its receipt is still there, this one returns Already applied and changes nothing; if the receipt is gone (expired, evicted, or lost in a restart), it deducts again. Look the order up first (Ctrl+F) when in doubt.</source>
        <translation>用同一订单号再次发起相同的调用。如果第一次调用确实已扣减且回执仍在，这次会返回“已执行”且不做任何改动；如果回执已不在（过期、被淘汰或在重启中丢失），则会再次扣减。如有疑问，请先查询该订单 (Ctrl+F)。</translation>
    </message>
    <message>
        <source>The script keeps no receipt. If the first call did run (its reply was lost), this call deducts a second time. Check the stock first.</source>
        <translation>脚本不保留回执。如果第一次调用确实已执行（只是应答丢失），这次调用会再扣减一次。请先检查库存。</translation>
    </message>
    <message>
        <source>Deduct once for this order. The server runs every check before its first write.</source>
        <translation>对此订单只扣减一次。服务器在第一次写入前执行全部检查。</translation>
    </message>
    <message>
        <source>Run the EVAL script. It is not idempotent: if the reply is lost, you cannot safely run it again.</source>
        <translation>运行 EVAL 脚本。它不是幂等的：如果应答丢失，就无法安全地再次运行。</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Stock key</source>
        <translation>库存键</translation>
    </message>
    <message>
        <source>%1   slot %2</source>
        <translation>%1   槽 %2</translation>
    </message>
    <message>
        <source>Receipt key</source>
        <translation>回执键</translation>
    </message>
    <message>
        <source>Order id</source>
        <translation>订单号</translation>
    </message>
    <message>
        <source>%1 (not sent: recorded in history and the audit log)</source>
        <translation>%1（未发送：记录在历史和审计日志中）</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <source>Stock now</source>
        <translation>当前库存</translation>
    </message>
    <message>
        <source>Receipt now</source>
        <translation>当前回执</translation>
    </message>
    <message>
        <source>Known anomaly</source>
        <translation>已知异常</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>%1 ms: no reply by then is reported as Outcome unknown</source>
        <translation>%1 毫秒：届时仍无应答即报告为“结果未知”</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>含义</translation>
    </message>
    <message>
        <source>command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>number of keys</source>
        <translation>键的数量</translation>
    </message>
    <message>
        <source>stock key</source>
        <translation>库存键</translation>
    </message>
    <message>
        <source>receipt key</source>
        <translation>回执键</translation>
    </message>
    <message>
        <source>quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>receipt TTL (s)</source>
        <translation>回执 TTL（秒）</translation>
    </message>
    <message>
        <source>SHA1 of stock_decrement.lua</source>
        <translation>stock_decrement.lua 的 SHA1</translation>
    </message>
    <message>
        <source>The same command for redis-cli:</source>
        <translation>用于 redis-cli 的同一命令：</translation>
    </message>
    <message>
        <source>&amp;Copy as redis-cli command</source>
        <translation>复制为 redis-cli 命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run again</source>
        <translation>再次运行(&amp;R)</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>I understand that this may deduct a second time</source>
        <translation>我明白这可能会重复扣减</translation>
    </message>
    <message>
        <source>Last check: %1</source>
        <translation>最近检查：%1</translation>
    </message>
</context>
<context>
    <name>ui::ConfirmPage</name>
    <message>
        <source>Step 5 of 6 · Confirm</source>
        <translation>第 5 步，共 6 步 · 确认</translation>
    </message>
    <message>
        <source>Library name</source>
        <translation>函数库名称</translation>
    </message>
    <message>
        <source>Last step before the server changes. %1 %2?</source>
        <translation>服务器改动前的最后一步。%1 %2？</translation>
    </message>
    <message>
        <source>FUNCTION LOAD REPLACE of %1 (%2) as user &apos;%3&apos;</source>
        <translation>以用户“%3”对 %1 (%2) 执行 FUNCTION LOAD REPLACE</translation>
    </message>
    <message>
        <source>FUNCTION DELETE %1 as user &apos;%2&apos;</source>
        <translation>以用户“%2”执行 FUNCTION DELETE %1</translation>
    </message>
    <message>
        <source>put back %1 as backed up in %2, as user &apos;%3&apos;</source>
        <translation>以用户“%3”按 %2 中的备份放回 %1</translation>
    </message>
    <message>
        <source>FUNCTION RESTORE %1 of the dump in %2 as user &apos;%3&apos;</source>
        <translation>以用户“%3”对 %2 中的转储执行 FUNCTION RESTORE %1</translation>
    </message>
    <message>
        <source>On %1: %2.
Contract: %3. Backup: %4.
Afterwards the console reads every library back (FUNCTION LIST WITHCODE) to check the server holds exactly what it should, and writes an audit record.</source>
        <translation>在 %1 上：%2。
契约：%3。备份：%4。
之后控制台会读回每个函数库 (FUNCTION LIST WITHCODE)，检查服务器上的内容与预期完全一致，并写入一条审计记录。</translation>
    </message>
    <message>
        <source>
One node after the other: if one fails, the nodes already changed get their backed-up code back, and the rest are left as they are.</source>
        <translation>
逐个节点进行：如果某个节点失败，已改动的节点会恢复为备份的代码，其余节点保持原样。</translation>
    </message>
    <message>
        <source>
Left alone, nothing to change: %1.</source>
        <translation>
保持不变，无需改动：%1。</translation>
    </message>
    <message>
        <source>To confirm, type the library name, &lt;b&gt;%1&lt;/b&gt;:</source>
        <translation>请输入函数库名称 &lt;b&gt;%1&lt;/b&gt; 以确认：</translation>
    </message>
    <message>
        <source>I understand this is a breaking change: %1</source>
        <translation>我明白这是破坏性变更：%1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>ui::ConnectionDialog</name>
    <message>
        <source>Connection profile</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <source>redis://user:password@host:6379/0, rediss://… for TLS, or redis-sentinel://s1,s2#name</source>
        <translation>redis://user:password@host:6379/0，TLS 用 rediss://…，或 redis-sentinel://s1,s2#name</translation>
    </message>
    <message>
        <source>Fill form</source>
        <translation>填写表单</translation>
    </message>
    <message>
        <source>Paste a URL to fill the form:</source>
        <translation>粘贴 URL 以填写表单：</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>Sentinel</source>
        <translation>哨兵</translation>
    </message>
    <message>
        <source>Key schema</source>
        <translation>键模式</translation>
    </message>
    <message>
        <source>Cluster &amp;&amp; replicas</source>
        <translation>集群与副本</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>Delete the profile &apos;%1&apos; and its saved passwords?</source>
        <translation>删除配置“%1”及其保存的密码？</translation>
    </message>
    <message>
        <source>Cannot read this URL: %1</source>
        <translation>无法解析此 URL：%1</translation>
    </message>
    <message>
        <source>Filled from the URL; its password is in the password field.</source>
        <translation>已从 URL 填写；其密码已填入密码栏。</translation>
    </message>
    <message>
        <source>Filled from the URL.</source>
        <translation>已从 URL 填写。</translation>
    </message>
    <message>
        <source>Filled the Sentinel tab from the URL; the data node&apos;s password is in the password field. Give the sentinels&apos; own password on the Sentinel tab.</source>
        <translation>已从 URL 填写“哨兵”页；数据节点的密码已填入密码栏。请在“哨兵”页填写哨兵自己的密码。</translation>
    </message>
    <message>
        <source>Filled the Sentinel tab from the URL. Give the sentinels&apos; own user and password there if they need one.</source>
        <translation>已从 URL 填写“哨兵”页。如果哨兵需要用户和密码，请在那里填写。</translation>
    </message>
    <message>
        <source>Not saved:
%1</source>
        <translation>未保存：
%1</translation>
    </message>
    <message>
        <source>Saved as &apos;%1&apos; (%2).</source>
        <translation>已保存为“%1”(%2)。</translation>
    </message>
</context>
<context>
    <name>ui::ConnectionForm</name>
    <message>
        <source>e.g. staging-eu</source>
        <translation>例如 staging-eu</translation>
    </message>
    <message>
        <source>Profile &amp;name:</source>
        <translation>配置名称(&amp;N)：</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>T&amp;imeout:</source>
        <translation>超时(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation>环境(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation>数据库(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <source>default</source>
        <translation>default</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>用户(&amp;U)：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <source>optional: the ACL user that loads libraries</source>
        <translation>可选：加载函数库的 ACL 用户</translation>
    </message>
    <message>
        <source>&amp;Release user:</source>
        <translation>发布用户(&amp;R)：</translation>
    </message>
    <message>
        <source>Release passw&amp;ord:</source>
        <translation>发布用户密码(&amp;O)：</translation>
    </message>
    <message>
        <source>Behind Sentinel the sentinels name the primary (Sentinel tab): host and port are not used.</source>
        <translation>在哨兵之后由哨兵指定主节点（“哨兵”页）：不使用这里的主机和端口。</translation>
    </message>
    <message>
        <source>%1 copy</source>
        <translation>%1（复制）</translation>
    </message>
</context>
<context>
    <name>ui::ConnectionStatusWidget</name>
    <message>
        <source>Environment of this connection</source>
        <translation>此连接的环境</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <source>redis_version from INFO</source>
        <translation>INFO 中的 redis_version</translation>
    </message>
    <message>
        <source>redis_mode from INFO</source>
        <translation>INFO 中的 redis_mode</translation>
    </message>
    <message>
        <source>Replication role from INFO</source>
        <translation>INFO 中的复制角色</translation>
    </message>
    <message>
        <source>Server –</source>
        <translation>服务器 –</translation>
    </message>
    <message>
        <source>mode –</source>
        <translation>模式 –</translation>
    </message>
    <message>
        <source>role –</source>
        <translation>角色 –</translation>
    </message>
    <message>
        <source>%1 · TLS</source>
        <translation>%1 · TLS</translation>
    </message>
    <message>
        <source>%1 · no TLS</source>
        <translation>%1 · 无 TLS</translation>
    </message>
    <message>
        <source>ACL user, server address, and whether the connection uses TLS</source>
        <translation>ACL 用户、服务器地址，以及连接是否使用 TLS</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Redis: INFO not allowed for %1</source>
        <translation>Redis：不允许 %1 执行 INFO</translation>
    </message>
    <message>
        <source>this user</source>
        <translation>此用户</translation>
    </message>
    <message>
        <source>Primaries not reachable: %1. Keys in their slots cannot be read or written until they are back.</source>
        <translation>无法访问的主节点：%1。在它们恢复之前，其槽中的键无法读写。</translation>
    </message>
    <message>
        <source>Redis Cluster: every command goes to the primary owning its keys&apos; slot</source>
        <translation>Redis 集群：每条命令都发往持有其键所在槽的主节点</translation>
    </message>
    <message>
        <source>via SSH %1</source>
        <translation>经 SSH %1</translation>
    </message>
    <message>
        <source>Every connection goes through the SSH tunnel via %1.</source>
        <translation>所有连接都经过通往 %1 的 SSH 隧道。</translation>
    </message>
    <message>
        <source>SSH tunnel closed · commands in flight: outcome unknown · Ctrl+R reconnects</source>
        <translation>SSH 隧道已关闭 · 途中的命令：结果未知 · Ctrl+R 重连</translation>
    </message>
    <message>
        <source>reopening the SSH tunnel via %1…</source>
        <translation>正在重新打开经 %1 的 SSH 隧道…</translation>
    </message>
    <message>
        <source>SSH tunnel via %1 not reopened · Ctrl+R tries again</source>
        <translation>经 %1 的 SSH 隧道未能重新打开 · Ctrl+R 重试</translation>
    </message>
</context>
<context>
    <name>ui::ConnectionTestArea</name>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Not tested yet.</source>
        <translation>尚未测试。</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Opening the SSH tunnel via %1 for the test…</source>
        <translation>正在为测试打开经 %1 的 SSH 隧道…</translation>
    </message>
    <message>
        <source>Not tested: the SSH tunnel could not be opened. %1</source>
        <translation>未测试：无法打开 SSH 隧道。%1</translation>
    </message>
    <message>
        <source>Not tested: opening the SSH tunnel was cancelled.</source>
        <translation>未测试：已取消打开 SSH 隧道。</translation>
    </message>
    <message>
        <source>Not tested: %1</source>
        <translation>未测试：%1</translation>
    </message>
    <message>
        <source>Asking the sentinels for the primary of &apos;%1&apos;…</source>
        <translation>正在向哨兵询问“%1”的主节点…</translation>
    </message>
    <message>
        <source>%1 named %2 the primary of &apos;%3&apos; (ROLE confirmed)</source>
        <translation>%1 指定 %2 为“%3”的主节点（ROLE 已确认）</translation>
    </message>
    <message>
        <source>Testing %1 through the SSH tunnel via %2…</source>
        <translation>正在经 %2 的 SSH 隧道测试 %1…</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>through the SSH tunnel via %1 (closed after the test)</source>
        <translation>经 %1 的 SSH 隧道（测试后关闭）</translation>
    </message>
    <message>
        <source>Sentinel</source>
        <translation>哨兵</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Connected to %1 in %2 ms.</source>
        <translation>已连接到 %1，用时 %2 毫秒。</translation>
    </message>
    <message>
        <source>Connected to %1 in %2 ms, through the SSH tunnel via %3.</source>
        <translation>已连接到 %1，用时 %2 毫秒，经 %3 的 SSH 隧道。</translation>
    </message>
    <message>
        <source>The release user &apos;%1&apos; could not log in: %2.</source>
        <translation>发布用户“%1”无法登录：%2。</translation>
    </message>
</context>
<context>
    <name>ui::ConsoleController</name>
    <message>
        <source>The profile&apos;s Sentinel settings cannot be used.</source>
        <translation>此配置的哨兵设置无法使用。</translation>
    </message>
</context>
<context>
    <name>ui::ContractPage</name>
    <message>
        <source>Step 1 of 6 · Contract</source>
        <translation>第 1 步，共 6 步 · 契约</translation>
    </message>
    <message>
        <source>What callers of the functions will see: functions added, removed or changed, compared with what the server has loaded now (read as %1).</source>
        <translation>函数调用方将看到的变化：新增、移除或改动的函数，与服务器当前加载的内容比较（以 %1 的身份读取）。</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>Flags now</source>
        <translation>当前标志</translation>
    </message>
    <message>
        <source>Flags after</source>
        <translation>变更后标志</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Function changes</source>
        <translation>函数变更</translation>
    </message>
    <message>
        <source>Step 1 of 6 · Contract of the rollback</source>
        <translation>第 1 步，共 6 步 · 回滚的契约</translation>
    </message>
    <message>
        <source>Step 1 of 6 · Contract of the delete</source>
        <translation>第 1 步，共 6 步 · 删除的契约</translation>
    </message>
    <message>
        <source>Reading the libraries on the server…</source>
        <translation>正在读取服务器上的函数库…</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>Rollback of %1: %2 → %3</source>
        <translation>%1 的回滚：%2 → %3</translation>
    </message>
    <message>
        <source>Step 1 of 6 · Contract of the rollback to an older release</source>
        <translation>第 1 步，共 6 步 · 回滚到旧版本的契约</translation>
    </message>
    <message>
        <source>Loaded on %1: could not read FUNCTION LIST: %2</source>
        <translation>%1 上已加载：无法读取 FUNCTION LIST：%2</translation>
    </message>
    <message>
        <source>Loaded on %1 (Redis %2): %3</source>
        <translation>%1 上已加载 (Redis %2)：%3</translation>
    </message>
    <message>
        <source>%1, sha256 %2</source>
        <translation>%1，sha256 %2</translation>
    </message>
    <message>
        <source>New code: %1, sha256 %2</source>
        <translation>新代码：%1，sha256 %2</translation>
    </message>
    <message>
        <source>From backup %1 (taken %2)</source>
        <translation>来自备份 %1（取于 %2）</translation>
    </message>
    <message>
        <source>Cannot go on:
• %1</source>
        <translation>无法继续：
• %1</translation>
    </message>
    <message>
        <source>Breaking: %1. Callers that use these functions will fail; the confirmation will ask for a second acknowledgement.</source>
        <translation>破坏性：%1。使用这些函数的调用方将会失败；确认时会要求再次确认。</translation>
    </message>
</context>
<context>
    <name>ui::Count</name>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>key</source>
        <translation>个键</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>个键</translation>
    </message>
    <message>
        <source>byte</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>receipt</source>
        <translation>条回执</translation>
    </message>
    <message>
        <source>receipts</source>
        <translation>条回执</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>个 SKU</translation>
    </message>
    <message>
        <source>SKUs</source>
        <translation>个 SKU</translation>
    </message>
</context>
<context>
    <name>ui::DeductionForm</name>
    <message>
        <source>Order &amp;id</source>
        <translation>订单号(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Quantity</source>
        <translation>数量(&amp;Q)</translation>
    </message>
    <message>
        <source>1 to 1,000,000</source>
        <translation>1 至 1,000,000</translation>
    </message>
    <message>
        <source>Rec&amp;eipt TTL (s)</source>
        <translation>回执 TTL（秒）(&amp;E)</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Run deduction…  (Ctrl+Enter)</source>
        <translation>执行扣减…  (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>&amp;SKU</source>
        <translation>SKU(&amp;S)</translation>
    </message>
    <message>
        <source>F&amp;unction: FCALL inventory_deduct_v1 (once per order)</source>
        <translation>函数(&amp;U)：FCALL inventory_deduct_v1（每个订单一次）</translation>
    </message>
    <message>
        <source>Sc&amp;ript: EVALSHA stock_decrement.lua (not idempotent)</source>
        <translation>脚本(&amp;R)：EVALSHA stock_decrement.lua（非幂等）</translation>
    </message>
    <message>
        <source>Stock key</source>
        <translation>库存键</translation>
    </message>
    <message>
        <source>Receipt key</source>
        <translation>回执键</translation>
    </message>
    <message>
        <source>e.g. sku-1001 (the &lt;sku&gt; of %1)</source>
        <translation>例如 sku-1001（%1 中的 &lt;sku&gt;）</translation>
    </message>
    <message>
        <source>The server has no stock key %1.</source>
        <translation>服务器上没有库存键 %1。</translation>
    </message>
    <message>
        <source>The last key scan found no stock key %1.</source>
        <translation>上次键扫描没有找到库存键 %1。</translation>
    </message>
    <message>
        <source>Nearest existing SKUs: %1</source>
        <translation>最接近的已有 SKU：%1</translation>
    </message>
    <message>
        <source>Scan the keys (Keys tab) to see which SKUs exist.</source>
        <translation>扫描键（“键”页）以查看有哪些 SKU。</translation>
    </message>
    <message>
        <source>e.g. 9001 (the receipt is per order)</source>
        <translation>例如 9001（回执按订单记录）</translation>
    </message>
    <message>
        <source>optional: recorded in history and audit</source>
        <translation>可选：记录在历史和审计中</translation>
    </message>
    <message>
        <source>A retry with the same order id is safe: it deducts at most once while the receipt lives.</source>
        <translation>用同一订单号重试是安全的：回执存在期间最多只扣减一次。</translation>
    </message>
    <message>
        <source>No receipt: a retry after a lost reply may deduct twice.</source>
        <translation>无回执：应答丢失后重试可能重复扣减。</translation>
    </message>
    <message>
        <source>= %1; profile default %2 s</source>
        <translation>= %1；配置默认 %2 秒</translation>
    </message>
    <message>
        <source>not used in Script mode</source>
        <translation>脚本方式下不使用</translation>
    </message>
    <message>
        <source>%1   slot %2</source>
        <translation>%1   槽 %2</translation>
    </message>
    <message>
        <source>(enter a SKU)</source>
        <translation>（请输入 SKU）</translation>
    </message>
    <message>
        <source>none in Script mode</source>
        <translation>脚本方式下无</translation>
    </message>
    <message>
        <source>(enter a SKU and an order id)</source>
        <translation>（请输入 SKU 和订单号）</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>Both keys hash to slot %1: on a cluster, one node runs the call.</source>
        <translation>两个键都映射到槽 %1：在集群上由同一个节点执行该调用。</translation>
    </message>
</context>
<context>
    <name>ui::DeductionPanel</name>
    <message>
        <source>Deduction</source>
        <translation>扣减</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>This session&apos;s deductions (select one to see it and check it again)</source>
        <translation>本会话的扣减（选中一条可查看并再次检查）</translation>
    </message>
    <message>
        <source>%1 (read at %2)</source>
        <translation>%1（读取于 %2）</translation>
    </message>
    <message>
        <source>script retry after an unknown outcome, acknowledged: may deduct twice</source>
        <translation>结果未知后的脚本重试，已确认：可能重复扣减</translation>
    </message>
    <message>
        <source>retry of history entry %1 (%2)</source>
        <translation>重试历史记录 %1 (%2)</translation>
    </message>
</context>
<context>
    <name>ui::DemoDataPanel</name>
    <message>
        <source>Demo data</source>
        <translation>演示数据</translation>
    </message>
    <message>
        <source>Planted problem</source>
        <translation>预置的问题</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Why it matters</source>
        <translation>为何重要</translation>
    </message>
    <message>
        <source>Loading &lt;tt&gt;inventory_lib_v1&lt;/tt&gt; and seeding demo SKUs and orders…</source>
        <translation>正在加载 &lt;tt&gt;inventory_lib_v1&lt;/tt&gt; 并写入演示 SKU 和订单…</translation>
    </message>
    <message>
        <source>A private redis-server with generated data; it stops when the console exits. &lt;b&gt;%1 SKUs&lt;/b&gt; (&lt;tt&gt;%2&lt;/tt&gt; … &lt;tt&gt;%3&lt;/tt&gt;) and &lt;b&gt;%4 idempotency receipts&lt;/b&gt; written by real &lt;tt&gt;FCALL inventory_deduct_v1&lt;/tt&gt; calls for orders %5–%6, with TTLs from minutes to 7 days; %7 retried orders answered &lt;tt&gt;{2, recorded}&lt;/tt&gt; and %8 were refused for insufficient stock. %9 keys in %10 round trips. Planted on purpose, for you to find:</source>
        <translation>一个带有生成数据的私有 redis-server；控制台退出时它会停止。&lt;b&gt;%1 个 SKU&lt;/b&gt;（&lt;tt&gt;%2&lt;/tt&gt; … &lt;tt&gt;%3&lt;/tt&gt;）和 &lt;b&gt;%4 条幂等回执&lt;/b&gt;，由订单 %5–%6 的真实 &lt;tt&gt;FCALL inventory_deduct_v1&lt;/tt&gt; 调用写入，TTL 从几分钟到 7 天不等；%7 个重试的订单得到 &lt;tt&gt;{2, recorded}&lt;/tt&gt; 应答，%8 个因库存不足被拒绝。%10 次往返写入 %9 个键。特意预置、供你发现的问题：</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:%1&quot;&gt;&lt;b&gt;Seeding the demo data failed:&lt;/b&gt; %2&lt;/span&gt;&lt;br&gt;The server is still usable; its contents may be incomplete.</source>
        <translation>&lt;span style=&quot;color:%1&quot;&gt;&lt;b&gt;写入演示数据失败：&lt;/b&gt;%2&lt;/span&gt;&lt;br&gt;服务器仍可使用；其内容可能不完整。</translation>
    </message>
</context>
<context>
    <name>ui::DiffPage</name>
    <message>
        <source>Step 2 of 6 · Code</source>
        <translation>第 2 步，共 6 步 · 代码</translation>
    </message>
    <message>
        <source>The library&apos;s code now (left) and after the change (right). Red lines go, green lines come, yellow lines are edited.</source>
        <translation>函数库现在的代码（左）和改动后的代码（右）。红色行被删除，绿色行被加入，黄色行被修改。</translation>
    </message>
</context>
<context>
    <name>ui::EnvironmentField</name>
    <message>
        <source>Sessions on this profile start read-only: writes need the profile name typed to unlock them.</source>
        <translation>此配置的会话以只读方式开始：需输入配置名称解锁后才能写入。</translation>
    </message>
    <message>
        <source>Local once proven: after connecting, the server&apos;s process must be found on this machine owning the port; a tunnel, port-forward or container is treated as production.</source>
        <translation>经证实后才算本地：连接后必须在本机找到占用该端口的服务器进程；隧道、端口转发或容器都按生产环境对待。</translation>
    </message>
    <message>
        <source>Writes are allowed. Label a server production when a mistake there costs real stock.</source>
        <translation>允许写入。如果在某台服务器上出错会损失真实库存，请把它标为生产环境。</translation>
    </message>
    <message>
        <source>Default through an SSH bastion (the host is as the bastion sees it), until you pick a label. </source>
        <translation>经 SSH 堡垒机时的默认值（主机是堡垒机看到的主机），直到你选择标签。</translation>
    </message>
    <message>
        <source>Default behind Sentinel (after a failover the primary may be on any host), until you pick a label. </source>
        <translation>在哨兵之后时的默认值（故障转移后主节点可能在任意主机上），直到你选择标签。</translation>
    </message>
    <message>
        <source>Default for a loopback host. </source>
        <translation>回环主机的默认值。</translation>
    </message>
    <message>
        <source>Default for a host not written as localhost, 127.x.x.x or ::1, until you pick a label. </source>
        <translation>主机未写成 localhost、127.x.x.x 或 ::1 时的默认值，直到你选择标签。</translation>
    </message>
    <message>
        <source>This host is not written as loopback, yet labelled local: it is local only if, after connecting, the server&apos;s process is found on this machine; otherwise the session is production.</source>
        <translation>此主机没有写成回环地址，却被标为本地：只有连接后在本机找到该服务器进程时才算本地；否则会话按生产环境处理。</translation>
    </message>
    <message>
        <source>A server reached through an SSH bastion does not run on this machine: it cannot be labelled local.</source>
        <translation>经 SSH 堡垒机访问的服务器不在本机上运行：不能标为本地。</translation>
    </message>
    <message>
        <source>Behind Sentinel the primary may move to another machine: it cannot be labelled local.</source>
        <translation>在哨兵之后主节点可能迁移到另一台机器：不能标为本地。</translation>
    </message>
</context>
<context>
    <name>ui::FindingsModel</name>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Why, and what to do</source>
        <translation>原因及处理方法</translation>
    </message>
    <message>
        <source>Values read</source>
        <translation>读取到的值</translation>
    </message>
</context>
<context>
    <name>ui::FlatKeyView</name>
    <message>
        <source>Lists any keys, at most 1,000,000 per scan.</source>
        <translation>列出任意键，每次扫描最多 1,000,000 个。</translation>
    </message>
    <message>
        <source>Key pattern:</source>
        <translation>键匹配模式：</translation>
    </message>
    <message>
        <source>A Redis glob, as SCAN MATCH takes it: * any, ? one character, [abc] a set, \ escapes</source>
        <translation>Redis 通配模式，与 SCAN MATCH 相同：* 任意，? 一个字符，[abc] 字符集合，\ 转义</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>复制键</translation>
    </message>
    <message>
        <source>Copy value</source>
        <translation>复制值</translation>
    </message>
    <message>
        <source>Set TTL…</source>
        <translation>设置 TTL…</translation>
    </message>
    <message>
        <source>Remove TTL…</source>
        <translation>移除 TTL…</translation>
    </message>
    <message>
        <source>Delete receipt…</source>
        <translation>删除回执…</translation>
    </message>
    <message>
        <source>Scanning… %1 of %2 keys looked at, %3 listed</source>
        <translation>正在扫描… 已查看 %1 / %2 个键，列出 %3 个</translation>
    </message>
    <message>
        <source>%1 keys match.</source>
        <translation>%1 个键匹配。</translation>
    </message>
    <message>
        <source>Stopped: %1 keys listed so far.</source>
        <translation>已停止：目前列出 %1 个键。</translation>
    </message>
    <message>
        <source>%1 (%2 keys listed).</source>
        <translation>%1（列出 %2 个键）。</translation>
    </message>
    <message>
        <source>Copied key %1</source>
        <translation>已复制键 %1</translation>
    </message>
    <message>
        <source>Copied the value of %1 (%2)</source>
        <translation>已复制 %1 的值 (%2)</translation>
    </message>
    <message>
        <source>Cannot copy the value of %1: %2</source>
        <translation>无法复制 %1 的值：%2</translation>
    </message>
    <message>
        <source>it is not a string (or is gone)</source>
        <translation>它不是字符串（或已不存在）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Finding out whether the server is a cluster before scanning…</source>
        <translation>扫描前正在确认服务器是否为集群…</translation>
    </message>
    <message>
        <source>This key has no TTL: there is nothing to remove.</source>
        <translation>此键没有 TTL：无需移除。</translation>
    </message>
</context>
<context>
    <name>ui::HostKeyDialog</name>
    <message>
        <source>the jump host</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <source>the bastion</source>
        <translation>堡垒机</translation>
    </message>
    <message>
        <source>SSH host key changed</source>
        <translation>SSH 主机密钥已变化</translation>
    </message>
    <message>
        <source>Unknown SSH host key</source>
        <translation>未知的 SSH 主机密钥</translation>
    </message>
    <message>
        <source>&lt;b&gt;The host key of %1 %2 has CHANGED.&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 %2 的主机密钥已变化。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;The console has never connected to %1 %2 before.&lt;/b&gt;</source>
        <translation>&lt;b&gt;控制台以前从未连接过 %1 %2。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Route: %1</source>
        <translation>路径：%1</translation>
    </message>
    <message>
        <source>Anyone on the way could pose as this host. Compare its fingerprint with one obtained another way: ask the host&apos;s administrator, who can read it on the host itself with&lt;br&gt;&lt;tt&gt;&amp;nbsp;&amp;nbsp;ssh-keygen -lf %1&lt;/tt&gt;&lt;br&gt;Paste that fingerprint below: Trust is enabled only when it is exactly the same.</source>
        <translation>途中的任何人都可能冒充此主机。请把它的指纹与通过其他途径获得的指纹比较：询问主机管理员，他可以在主机上用&lt;br&gt;&lt;tt&gt;&amp;nbsp;&amp;nbsp;ssh-keygen -lf %1&lt;/tt&gt;&lt;br&gt;读出指纹。把那个指纹粘贴到下面：只有完全相同时“信任”才可用。</translation>
    </message>
    <message>
        <source>Trusted keys are written to the console&apos;s own known_hosts (%1), never to ~/.ssh/known_hosts.</source>
        <translation>信任的密钥写入控制台自己的 known_hosts (%1)，从不写入 ~/.ssh/known_hosts。</translation>
    </message>
    <message>
        <source>&amp;Replace the key and connect</source>
        <translation>替换密钥并连接(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Trust and connect</source>
        <translation>信任并连接(&amp;T)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>Key type:</source>
        <translation>密钥类型：</translation>
    </message>
    <message>
        <source>Offered now:</source>
        <translation>当前提供：</translation>
    </message>
    <message>
        <source>Fingerprint:</source>
        <translation>指纹：</translation>
    </message>
    <message>
        <source>Trusted before:</source>
        <translation>之前信任的：</translation>
    </message>
    <message>
        <source>(could not be read)</source>
        <translation>（无法读取）</translation>
    </message>
    <message>
        <source>The host offers a different key than the one trusted before. Someone may be intercepting the connection (a man-in-the-middle attack), or the host was reinstalled. Do not continue until its administrator confirms the new key.</source>
        <translation>该主机提供的密钥与之前信任的不同。可能有人在截获连接（中间人攻击），也可能主机被重装了。在其管理员确认新密钥之前不要继续。</translation>
    </message>
    <message>
        <source>This profile is &lt;b&gt;production&lt;/b&gt; (a server behind a bastion is, until labelled): the console does not replace a trusted key for it. Once the change is confirmed, remove the lines for &lt;tt&gt;%1&lt;/tt&gt; from &lt;tt&gt;%2&lt;/tt&gt; and connect again.</source>
        <translation>此配置是&lt;b&gt;生产环境&lt;/b&gt;（经堡垒机访问的服务器在标注之前都是）：控制台不会为它替换已信任的密钥。确认变更后，请从 &lt;tt&gt;%2&lt;/tt&gt; 中删除 &lt;tt&gt;%1&lt;/tt&gt; 的行，然后重新连接。</translation>
    </message>
    <message>
        <source>To replace the trusted key, paste the new fingerprint the administrator gave you.</source>
        <translation>要替换已信任的密钥，请粘贴管理员给你的新指纹。</translation>
    </message>
    <message>
        <source>SHA256:… as obtained from the host&apos;s administrator</source>
        <translation>从主机管理员处获得的 SHA256:…</translation>
    </message>
    <message>
        <source>Fingerprint you obtained:</source>
        <translation>你获得的指纹：</translation>
    </message>
    <message>
        <source>Paste the fingerprint to compare.</source>
        <translation>粘贴指纹以进行比较。</translation>
    </message>
    <message>
        <source>Matches the key the host offers.</source>
        <translation>与主机提供的密钥一致。</translation>
    </message>
    <message>
        <source>Does not match the key the host offers: do not trust it.</source>
        <translation>与主机提供的密钥不一致：不要信任它。</translation>
    </message>
</context>
<context>
    <name>ui::HoverReadout</name>
    <message>
        <source>%1: %2 %3</source>
        <translation>%1：%2 %3</translation>
    </message>
</context>
<context>
    <name>ui::KeyActionDialog</name>
    <message>
        <source>Set TTL</source>
        <translation>设置 TTL</translation>
    </message>
    <message>
        <source>Remove TTL</source>
        <translation>移除 TTL</translation>
    </message>
    <message>
        <source>Set stock</source>
        <translation>设置库存</translation>
    </message>
    <message>
        <source>Delete receipt</source>
        <translation>删除回执</translation>
    </message>
    <message>
        <source>Key:</source>
        <translation>键：</translation>
    </message>
    <message>
        <source>Expire in:</source>
        <translation>过期时间：</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Stock now:</source>
        <translation>当前库存：</translation>
    </message>
    <message>
        <source>a whole number from 0 to 1,000,000,000</source>
        <translation>0 到 1,000,000,000 之间的整数</translation>
    </message>
    <message>
        <source>New &amp;stock:</source>
        <translation>新库存(&amp;S)：</translation>
    </message>
    <message>
        <source>Command that will be sent:</source>
        <translation>将要发送的命令：</translation>
    </message>
    <message>
        <source>Delete key</source>
        <translation>删除键</translation>
    </message>
    <message>
        <source>(nothing is sent until the value is valid)</source>
        <translation>（值有效之前不会发送任何内容）</translation>
    </message>
</context>
<context>
    <name>ui::KeySchemaForm</name>
    <message>
        <source>&lt;sku&gt; and &lt;order&gt; are replaced by the SKU and the order id. Keep the same {hash tag} in both so that they share a cluster slot.</source>
        <translation>&lt;sku&gt; 和 &lt;order&gt; 会替换为 SKU 和订单号。两者应使用相同的 {哈希标签}，以便落在同一个集群槽中。</translation>
    </message>
    <message>
        <source>Stock key:</source>
        <translation>库存键：</translation>
    </message>
    <message>
        <source>Receipt key:</source>
        <translation>回执键：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Receipt TTL:</source>
        <translation>回执 TTL：</translation>
    </message>
    <message>
        <source>Example:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>SKU 42, order 9001: %1 and %2</source>
        <translation>SKU 42，订单 9001：%1 和 %2</translation>
    </message>
</context>
<context>
    <name>ui::LabPanel</name>
    <message>
        <source>Successes (first deductions)</source>
        <translation>成功（首次扣减）</translation>
    </message>
    <message>
        <source>Oversold units</source>
        <translation>超卖数量</translation>
    </message>
    <message>
        <source>Double deductions</source>
        <translation>重复扣减</translation>
    </message>
    <message>
        <source>Retries answered from receipts</source>
        <translation>由回执应答的重试</translation>
    </message>
    <message>
        <source>Refused: insufficient stock</source>
        <translation>已拒绝：库存不足</translation>
    </message>
    <message>
        <source>Initial → final stock</source>
        <translation>初始 → 最终库存</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <source>Receipts left</source>
        <translation>剩余回执</translation>
    </message>
    <message>
        <source>none (no receipts)</source>
        <translation>无（没有回执）</translation>
    </message>
    <message>
        <source>Reused order ids</source>
        <translation>重复使用的订单号</translation>
    </message>
    <message>
        <source>Outcome unknown (retried)</source>
        <translation>结果未知（已重试）</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 commands/s</source>
        <translation>每秒 %1 条命令</translation>
    </message>
    <message>
        <source>Latency p50 / p99</source>
        <translation>延迟 p50 / p99</translation>
    </message>
    <message>
        <source>%1 / %2 ms</source>
        <translation>%1 / %2 毫秒</translation>
    </message>
    <message>
        <source>Units on each strategy&apos;s fresh SKU before the storm</source>
        <translation>压测前每种策略的新 SKU 上的库存数量</translation>
    </message>
    <message>
        <source>Connections deducting at the same time</source>
        <translation>同时扣减的连接数</translation>
    </message>
    <message>
        <source>Deductions of one unit each, over all connections</source>
        <translation>每次扣减一个单位，所有连接合计的次数</translation>
    </message>
    <message>
        <source>Commands each connection keeps in flight</source>
        <translation>每个连接保持在途的命令数</translation>
    </message>
    <message>
        <source>Share of attempts that resend an order id the server already acknowledged, as a client retrying a finished order does</source>
        <translation>重新发送服务器已确认过的订单号的尝试所占比例，就像客户端重试一个已完成的订单</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>CLIENT PAUSE half way</source>
        <translation>中途 CLIENT PAUSE</translation>
    </message>
    <message>
        <source>Client timeout shorter than a pause</source>
        <translation>客户端超时短于暂停</translation>
    </message>
    <message>
        <source>A pause stalls the storm; with the short timeout, replies come too late, each call is an unknown outcome and is retried with the same order id</source>
        <translation>暂停会阻塞压测；使用短超时时应答来得太晚，每次调用都是结果未知，并用同一订单号重试</translation>
    </message>
    <message>
        <source>How long CLIENT PAUSE … WRITE lasts</source>
        <translation>CLIENT PAUSE … WRITE 持续的时间</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>The storm&apos;s command timeout with the short-timeout fault</source>
        <translation>短超时故障下压测的命令超时</translation>
    </message>
    <message>
        <source>Initial &amp;stock</source>
        <translation>初始库存(&amp;S)</translation>
    </message>
    <message>
        <source>Conn&amp;ections</source>
        <translation>连接数(&amp;E)</translation>
    </message>
    <message>
        <source>Atte&amp;mpts</source>
        <translation>尝试次数(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Pipeline depth</source>
        <translation>流水线深度(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Retry share</source>
        <translation>重试比例(&amp;R)</translation>
    </message>
    <message>
        <source>Fa&amp;ult</source>
        <translation>故障(&amp;U)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Client timeout</source>
        <translation>客户端超时</translation>
    </message>
    <message>
        <source>Strategies</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Run storm</source>
        <translation>运行压测</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Esc: stop sending; the lab&apos;s keys are still removed</source>
        <translation>Esc：停止发送；实验室的键仍会被删除</translation>
    </message>
    <message>
        <source>Storm</source>
        <translation>压测</translation>
    </message>
    <message>
        <source>Each strategy deducts one unit at a time from a fresh throwaway SKU (stock:{lab-…}) under the same storm, and the lab counts what went wrong: &lt;b&gt;oversold&lt;/b&gt; units (sold minus the initial stock) and &lt;b&gt;double deductions&lt;/b&gt; from retries. The lab&apos;s keys are removed afterwards.</source>
        <translation>每种策略在同一压测下，每次从一个新的临时 SKU (stock:{lab-…}) 扣减一个单位，实验室统计出错的情况：&lt;b&gt;超卖&lt;/b&gt;数量（售出减去初始库存）和重试造成的&lt;b&gt;重复扣减&lt;/b&gt;。实验室的键之后会被删除。</translation>
    </message>
    <message>
        <source>The lab is disabled on this session: %1.</source>
        <translation>本会话禁用了实验室：%1。</translation>
    </message>
    <message>
        <source>Not run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>Not run yet: the lab is disabled on this session (see above).</source>
        <translation>尚未运行：本会话禁用了实验室（见上方）。</translation>
    </message>
    <message>
        <source>Not run yet: press Run storm (Ctrl+Return) to run each ticked strategy on throwaway SKUs through %1; their keys are removed afterwards.</source>
        <translation>尚未运行：按“运行压测”(Ctrl+Return) 经 %1 在临时 SKU 上运行每种勾选的策略；它们的键之后会被删除。</translation>
    </message>
    <message>
        <source>Nothing sent: %1.</source>
        <translation>未发送任何内容：%1。</translation>
    </message>
    <message>
        <source>Starting %1 through %2…</source>
        <translation>正在经 %2 启动 %1…</translation>
    </message>
    <message>
        <source>Cancelling: waiting for the commands in flight, then removing the lab&apos;s keys…</source>
        <translation>正在取消：等待在途命令完成，然后删除实验室的键…</translation>
    </message>
    <message>
        <source>Running %1 on %2: %3 of %4 attempts…</source>
        <translation>正在 %2 上运行 %1：%3 / %4 次尝试…</translation>
    </message>
    <message>
        <source>The lab could not run: %1.</source>
        <translation>实验室无法运行：%1。</translation>
    </message>
    <message>
        <source>Cancelled; the lab&apos;s keys were removed.</source>
        <translation>已取消；实验室的键已删除。</translation>
    </message>
    <message>
        <source>Done; the lab&apos;s keys were removed.</source>
        <translation>完成；实验室的键已删除。</translation>
    </message>
    <message>
        <source>Done, but some keys stayed: %1</source>
        <translation>完成，但有些键仍在：%1</translation>
    </message>
    <message>
        <source>sold %1 from a stock of %2</source>
        <translation>从库存 %2 中售出 %1</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>在 %1 上</translation>
    </message>
</context>
<context>
    <name>ui::LatencyChart</name>
    <message>
        <source>Round-trip latency: run the lab to see each strategy&apos;s histogram</source>
        <translation>往返延迟：运行实验室以查看每种策略的直方图</translation>
    </message>
    <message>
        <source>Round-trip latency (share of each strategy&apos;s commands)</source>
        <translation>往返延迟（各策略命令所占比例）</translation>
    </message>
    <message>
        <source>round trip (ms)</source>
        <translation>往返（毫秒）</translation>
    </message>
    <message>
        <source>share</source>
        <translation>比例</translation>
    </message>
</context>
<context>
    <name>ui::LedgerForm</name>
    <message>
        <source>CSV or JSON-lines file</source>
        <translation>CSV 或 JSON-lines 文件</translation>
    </message>
    <message>
        <source>SQLite database file</source>
        <translation>SQLite 数据库文件</translation>
    </message>
    <message>
        <source>PostgreSQL server</source>
        <translation>PostgreSQL 服务器</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>typed for this run only; never saved</source>
        <translation>仅用于本次运行；从不保存</translation>
    </message>
    <message>
        <source>e.g. order_id=id,sku=product,time=created_at</source>
        <translation>例如 order_id=id,sku=product,time=created_at</translation>
    </message>
    <message>
        <source>e.g. paid=committed,refunded=cancelled</source>
        <translation>例如 paid=committed,refunded=cancelled</translation>
    </message>
    <message>
        <source>all SKUs (a Redis glob, e.g. sku-1*)</source>
        <translation>全部 SKU（Redis 通配模式，例如 sku-1*）</translation>
    </message>
    <message>
        <source>from (ISO 8601 with zone)</source>
        <translation>起（ISO 8601，带时区）</translation>
    </message>
    <message>
        <source>until (exclusive)</source>
        <translation>止（不含）</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>How long a receipt the ledger does not have is given before it is a release candidate (an export runs behind the orders written).</source>
        <translation>订单账中没有的回执在成为待释放之前的等待时间（导出总是落后于已写入的订单）。</translation>
    </message>
    <message>
        <source>Ledger:</source>
        <translation>订单账：</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>Query:</source>
        <translation>查询：</translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>States:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>SKUs:</source>
        <translation>SKU：</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>时间窗口：</translation>
    </message>
    <message>
        <source>Grace:</source>
        <translation>宽限期：</translation>
    </message>
    <message>
        <source>/path/to/orders.csv or orders.jsonl (header order_id,sku,quantity,state)</source>
        <translation>/path/to/orders.csv 或 orders.jsonl（表头 order_id,sku,quantity,state）</translation>
    </message>
    <message>
        <source>/path/to/ledger.db (opened read-only)</source>
        <translation>/path/to/ledger.db（以只读方式打开）</translation>
    </message>
    <message>
        <source>postgresql://user@host:5432/database (read-only session)</source>
        <translation>postgresql://user@host:5432/database（只读会话）</translation>
    </message>
    <message>
        <source>Will run, read-only: %1</source>
        <translation>将以只读方式运行：%1</translation>
    </message>
    <message>
        <source>Reads the file line by line; a query does not apply.</source>
        <translation>逐行读取文件；不适用查询。</translation>
    </message>
    <message>
        <source>Choose the order ledger</source>
        <translation>选择订单账</translation>
    </message>
    <message>
        <source>SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)</source>
        <translation>SQLite 数据库 (*.db *.sqlite *.sqlite3);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Ledger exports (*.csv *.jsonl *.ndjson);;All files (*)</source>
        <translation>订单账导出 (*.csv *.jsonl *.ndjson);;所有文件 (*)</translation>
    </message>
    <message>
        <source>(the column mapping is not valid: %1)</source>
        <translation>（列映射无效：%1）</translation>
    </message>
    <message>
        <source>Give the ledger: a file, a SQLite database or a PostgreSQL URL.</source>
        <translation>请给出订单账：一个文件、一个 SQLite 数据库或一个 PostgreSQL URL。</translation>
    </message>
    <message>
        <source>Ledger: %1</source>
        <translation>订单账：%1</translation>
    </message>
    <message>
        <source>Ledger: %1 is not a %2</source>
        <translation>订单账：%1 不是%2</translation>
    </message>
    <message>
        <source>Columns: %1</source>
        <translation>列：%1</translation>
    </message>
    <message>
        <source>States: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <source>SKUs: %1</source>
        <translation>SKU：%1</translation>
    </message>
    <message>
        <source>Window: %1 is not a time; give ISO 8601 with a zone (2026-12-03T10:00:00Z) or seconds since 1970</source>
        <translation>时间窗口：%1 不是时间；请给出带时区的 ISO 8601（2026-12-03T10:00:00Z）或自 1970 年起的秒数</translation>
    </message>
    <message>
        <source>Window: a time window needs the ledger&apos;s time column; map it under Columns (time=COLUMN)</source>
        <translation>时间窗口：时间窗口需要订单账的时间列；请在“列”中映射（time=列名）</translation>
    </message>
    <message>
        <source>Previe&amp;w rows…</source>
        <translation>预览行(&amp;W)…</translation>
    </message>
    <message>
        <source>Read the first rows with this mapping, to check it before a run</source>
        <translation>用此映射读取前几行，以便在运行前检查</translation>
    </message>
    <message>
        <source>Save in profile</source>
        <translation>保存到配置</translation>
    </message>
    <message>
        <source>Keep this ledger in the profile &apos;%1&apos; (a PostgreSQL password in the system keyring, never in a file), for the next session and for inventory-cli reconcile --profile</source>
        <translation>将此订单账保存在配置“%1”中（PostgreSQL 密码存入系统密钥环，从不写入文件），供下次会话和 inventory-cli reconcile --profile 使用</translation>
    </message>
    <message>
        <source>kept in the keyring only when saved in the profile</source>
        <translation>仅在保存到配置时存入密钥环</translation>
    </message>
    <message>
        <source>empty: the mapped columns of the table</source>
        <translation>留空：读取该表中映射的列</translation>
    </message>
    <message>
        <source>The table whose mapped columns are read when no query is given</source>
        <translation>未给出查询时读取其映射列的表</translation>
    </message>
    <message>
        <source>or table:</source>
        <translation>或表：</translation>
    </message>
    <message>
        <source>Query: %1</source>
        <translation>查询：%1</translation>
    </message>
</context>
<context>
    <name>ui::LedgerPreviewDialog</name>
    <message>
        <source>Ledger preview</source>
        <translation>订单账预览</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Nothing was read: %1</source>
        <translation>未读取任何内容：%1</translation>
    </message>
    <message>
        <source>The first %1 rows of %2 as a run will read them: the columns and states mapped, each row checked. Nothing is written.</source>
        <translation>%2 的前 %1 行，按运行时的方式读取：列和状态已映射，每行都已检查。不写入任何内容。</translation>
    </message>
    <message>
        <source>Reading the first rows…</source>
        <translation>正在读取前几行…</translation>
    </message>
    <message>
        <source>Could not open the ledger: %1</source>
        <translation>无法打开订单账：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>(no time column mapped)</source>
        <translation>（未映射时间列）</translation>
    </message>
    <message>
        <source>A run would stop here: %1. Fix the column or state mapping (or the ledger) before running.</source>
        <translation>运行会在此处停止：%1。请在运行前修正列或状态映射（或订单账）。</translation>
    </message>
    <message>
        <source>The ledger has no rows.</source>
        <translation>订单账没有任何行。</translation>
    </message>
    <message>
        <source>These %1 rows map cleanly; the ledger has more.</source>
        <translation>这 %1 行映射无误；订单账还有更多行。</translation>
    </message>
    <message>
        <source>All %1 rows of the ledger map cleanly.</source>
        <translation>订单账的全部 %1 行映射无误。</translation>
    </message>
</context>
<context>
    <name>ui::LedgerProfileLink</name>
    <message>
        <source>The ledger saved in the profile &apos;%1&apos;.</source>
        <translation>已载入配置“%1”中保存的订单账。</translation>
    </message>
    <message>
        <source>The ledger saved in the profile &apos;%1&apos;; looking for its password in the keyring…</source>
        <translation>已载入配置“%1”中保存的订单账；正在密钥环中查找其密码…</translation>
    </message>
    <message>
        <source>The ledger saved in the profile &apos;%1&apos;, its password from the keyring.</source>
        <translation>已载入配置“%1”中保存的订单账，密码取自密钥环。</translation>
    </message>
    <message>
        <source>The ledger saved in the profile &apos;%1&apos;. No password for it was found (%2): type it to run.</source>
        <translation>已载入配置“%1”中保存的订单账。未找到它的密码（%2）：请输入密码后运行。</translation>
    </message>
    <message>
        <source>none in the keyring</source>
        <translation>密钥环中没有</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Not saved: the profile &apos;%1&apos; is no longer saved.</source>
        <translation>未保存：配置“%1”已不存在。</translation>
    </message>
    <message>
        <source>Saved in the profile &apos;%1&apos;, without a password (none typed; any kept before was removed).</source>
        <translation>已保存到配置“%1”，不含密码（未输入密码；之前保存的密码已删除）。</translation>
    </message>
    <message>
        <source>Saved in the profile &apos;%1&apos;.</source>
        <translation>已保存到配置“%1”。</translation>
    </message>
    <message>
        <source>Saved in the profile &apos;%1&apos;; the password in the system keyring.</source>
        <translation>已保存到配置“%1”；密码存入系统密钥环。</translation>
    </message>
    <message>
        <source>Saved in the profile &apos;%1&apos;; the password is not: %2</source>
        <translation>已保存到配置“%1”；密码未保存：%2</translation>
    </message>
</context>
<context>
    <name>ui::LibrariesView</name>
    <message>
        <source>Preview upgrade…</source>
        <translation>预览升级…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Load file…</source>
        <translation>加载文件…</translation>
    </message>
    <message>
        <source>Roll back…</source>
        <translation>回滚…</translation>
    </message>
    <message>
        <source>Compare with folder…</source>
        <translation>与文件夹比较…</translation>
    </message>
    <message>
        <source>Preview and load a library file behind the guards</source>
        <translation>在防护之下预览并加载函数库文件</translation>
    </message>
    <message>
        <source>Put back the state saved in a backup file</source>
        <translation>放回备份文件中保存的状态</translation>
    </message>
    <message>
        <source>Also match loaded libraries against the files of another folder</source>
        <translation>同时将已加载的函数库与另一个文件夹中的文件比对</translation>
    </message>
    <message>
        <source>Library / function</source>
        <translation>函数库 / 函数</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Functions / flags</source>
        <translation>函数 / 标志</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>Local file</source>
        <translation>本地文件</translation>
    </message>
    <message>
        <source>Loaded function libraries</source>
        <translation>已加载的函数库</translation>
    </message>
    <message>
        <source>Function libraries on %1</source>
        <translation>%1 上的函数库</translation>
    </message>
    <message>
        <source>(no server)</source>
        <translation>（无服务器）</translation>
    </message>
    <message>
        <source>Reading the replication group (INFO replication)…</source>
        <translation>正在读取复制组 (INFO replication)…</translation>
    </message>
    <message>
        <source>No connection.</source>
        <translation>无连接。</translation>
    </message>
    <message>
        <source>Reading FUNCTION LIST WITHCODE…</source>
        <translation>正在读取 FUNCTION LIST WITHCODE…</translation>
    </message>
    <message>
        <source>FUNCTION LIST as user &apos;%1&apos; failed: %2</source>
        <translation>以用户“%1”执行 FUNCTION LIST 失败：%2</translation>
    </message>
    <message>
        <source>Function libraries on the cluster of %1 (%2 primaries, %3 replicas)</source>
        <translation>%1 所在集群上的函数库（%2 个主节点，%3 个副本）</translation>
    </message>
    <message>
        <source>Function libraries on %1 and its replica</source>
        <translation>%1 及其副本上的函数库</translation>
    </message>
    <message>
        <source>Function libraries on %1 and its %2 replicas</source>
        <translation>%1 及其 %2 个副本上的函数库</translation>
    </message>
    <message>
        <source>Function libraries on %1, a replica of %2</source>
        <translation>%1（%2 的副本）上的函数库</translation>
    </message>
    <message>
        <source>Reading FUNCTION LIST WITHCODE on %1 nodes…</source>
        <translation>正在 %1 个节点上读取 FUNCTION LIST WITHCODE…</translation>
    </message>
    <message>
        <source>1 function</source>
        <translation>1 个函数</translation>
    </message>
    <message>
        <source>%1 functions</source>
        <translation>%1 个函数</translation>
    </message>
    <message>
        <source>%1: loaded %2, local file %3 (%4) differs.</source>
        <translation>%1：已加载 %2，本地文件 %3 (%4) 不同。</translation>
    </message>
    <message>
        <source>1 library</source>
        <translation>1 个函数库</translation>
    </message>
    <message>
        <source>%1 libraries</source>
        <translation>%1 个函数库</translation>
    </message>
    <message>
        <source>%1 on %2, read %3. Compared with: %4</source>
        <translation>%2 上的%1，读取于 %3。比对对象：%4</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <source>the shipped functions/</source>
        <translation>随附的 functions/</translation>
    </message>
    <message>
        <source>(no flags)</source>
        <translation>（无标志）</translation>
    </message>
    <message>
        <source>(no description)</source>
        <translation>（无描述）</translation>
    </message>
    <message>
        <source>Select a library to see its code.</source>
        <translation>选中一个函数库以查看其代码。</translation>
    </message>
    <message>
        <source>Code of %1 as loaded (read-only): %2, %3 lines, sha256 %4</source>
        <translation>%1 已加载的代码（只读）：%2，%3 行，sha256 %4</translation>
    </message>
    <message>
        <source>Load library</source>
        <translation>加载函数库</translation>
    </message>
    <message>
        <source>%1 could not be inspected offline, so it is not loaded. This says nothing about the code: try again when the machine is less busy.

%2</source>
        <translation>无法离线检查 %1，因此没有加载。这并不说明代码有问题：请在机器不那么忙时重试。

%2</translation>
    </message>
    <message>
        <source>%1 cannot be loaded, Redis would refuse it:

%2</source>
        <translation>%1 无法加载，Redis 会拒绝它：

%2</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>回滚</translation>
    </message>
    <message>
        <source>Bring nodes in line</source>
        <translation>使节点一致</translation>
    </message>
    <message>
        <source>Load a library file</source>
        <translation>加载函数库文件</translation>
    </message>
    <message>
        <source>Lua libraries (*.lua);;All files (*)</source>
        <translation>Lua 函数库 (*.lua);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Compare with the library files of a folder</source>
        <translation>与某个文件夹中的函数库文件比较</translation>
    </message>
</context>
<context>
    <name>ui::LibraryTableModel</name>
    <message>
        <source>Library</source>
        <translation>函数库</translation>
    </message>
    <message>
        <source>Functions</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Function names [flags] (hover for descriptions)</source>
        <translation>函数名 [标志]（悬停查看描述）</translation>
    </message>
</context>
<context>
    <name>ui::LoadWizard</name>
    <message>
        <source>Load %1 from %2</source>
        <translation>从 %2 加载 %1</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Roll back %1</source>
        <translation>回滚 %1</translation>
    </message>
    <message>
        <source>Restore the function dump (%1)</source>
        <translation>恢复函数转储 (%1)</translation>
    </message>
</context>
<context>
    <name>ui::MainWindow</name>
    <message>
        <source>&amp;Overview</source>
        <translation>概览(&amp;O)</translation>
    </message>
    <message>
        <source>Overview updated %1</source>
        <translation>概览已更新 %1</translation>
    </message>
    <message>
        <source>SERVER RESTARTED (run_id changed) · %1</source>
        <translation>服务器已重启（run_id 已变化）· %1</translation>
    </message>
    <message>
        <source>Overview refresh failed</source>
        <translation>概览刷新失败</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Deductions</source>
        <translation>扣减(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Libraries</source>
        <translation>函数库(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Audit log</source>
        <translation>审计日志(&amp;A)</translation>
    </message>
    <message>
        <source>Char&amp;ts</source>
        <translation>图表(&amp;T)</translation>
    </message>
    <message>
        <source>Readi&amp;ness</source>
        <translation>就绪检查(&amp;N)</translation>
    </message>
    <message>
        <source>La&amp;b</source>
        <translation>实验室(&amp;B)</translation>
    </message>
    <message>
        <source>Show the %1 tab</source>
        <translation>显示“%1”页</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source> · checking whether the server runs on this machine…</source>
        <translation> · 正在检查服务器是否在本机运行…</translation>
    </message>
    <message>
        <source>checking whether the server runs on this machine…</source>
        <translation>正在检查服务器是否在本机运行…</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New connection…</source>
        <translation>新建连接(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Unlock writes…</source>
        <translation>解锁写入(&amp;U)…</translation>
    </message>
    <message>
        <source>&amp;Lock writes (read-only)</source>
        <translation>锁定写入（只读）(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Reconnect</source>
        <translation>重新连接(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Find order…</source>
        <translation>查找订单(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Inventory Console</source>
        <translation>关于 Inventory Console(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>READ-ONLY session: writes are refused until you unlock (File &gt; Unlock writes, Ctrl+Shift+U)</source>
        <translation>只读会话：解锁前写入都会被拒绝（文件 &gt; 解锁写入，Ctrl+Shift+U）</translation>
    </message>
    <message>
        <source>WRITES UNLOCKED on production for this session: every write affects real orders</source>
        <translation>本会话已在生产环境上解锁写入：每次写入都会影响真实订单</translation>
    </message>
    <message>
        <source>Reconnect could not open it again: %1</source>
        <translation>重新连接无法再次打开它：%1</translation>
    </message>
    <message>
        <source>Inventory Console — %1</source>
        <translation>Inventory Console — %1</translation>
    </message>
    <message>
        <source>Inventory Console — %1 (primary of &apos;%2&apos;)</source>
        <translation>Inventory Console — %1（“%2”的主节点）</translation>
    </message>
    <message>
        <source> via SSH %1</source>
        <translation> 经 SSH %1</translation>
    </message>
    <message>
        <source>via Sentinel &apos;%1&apos;</source>
        <translation>经哨兵“%1”</translation>
    </message>
    <message>
        <source>The sentinels named %1 the primary of &apos;%2&apos; and ROLE confirmed it. If they name another one, every connection of this window moves there.</source>
        <translation>哨兵指定 %1 为“%2”的主节点，并经 ROLE 确认。如果它们指定了另一个，此窗口的所有连接都会迁移过去。</translation>
    </message>
    <message>
        <source>primary moved from %1 to %2 at %3</source>
        <translation>主节点于 %3 从 %1 迁移到 %2</translation>
    </message>
    <message>
        <source>Sentinel named %1 the primary of &apos;%2&apos; at %3; every connection of this window now goes there. Commands in flight on %4 when it moved: outcome unknown, not resent; look up their receipts (Ctrl+F).</source>
        <translation>哨兵于 %3 指定 %1 为“%2”的主节点；此窗口的所有连接现在都发往那里。迁移时在 %4 上途中的命令：结果未知，未重发；请查询它们的回执 (Ctrl+F)。</translation>
    </message>
    <message>
        <source>Sentinel &apos;%1&apos;: primary not confirmed</source>
        <translation>哨兵“%1”：主节点未确认</translation>
    </message>
    <message>
        <source>This is the embedded demo server, started for a quick look: no persistence, no replica, one default user who may do everything, the previous library release, and seeded data with deliberate anomalies. The rules it fails are expected here; each one shows what a production server needs.</source>
        <translation>这是嵌入式演示服务器，用于快速浏览：无持久化、无副本、一个可执行所有操作的默认用户、上一个函数库版本，以及带有故意异常的种子数据。它在这里未通过的规则是预期之中的；每一条都说明了生产服务器需要什么。</translation>
    </message>
    <message>
        <source>embedded demo server with generated data; it stops when the console exits</source>
        <translation>带有生成数据的嵌入式演示服务器；控制台退出时它会停止</translation>
    </message>
    <message>
        <source>Seeding demo data…</source>
        <translation>正在写入演示数据…</translation>
    </message>
    <message>
        <source>Demo data seeded</source>
        <translation>演示数据已写入</translation>
    </message>
    <message>
        <source>Seeding the demo data failed</source>
        <translation>写入演示数据失败</translation>
    </message>
    <message>
        <source>About Inventory Console</source>
        <translation>关于 Inventory Console</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Inventory Console %1&lt;/h3&gt;&lt;p&gt;An admin console for the Redis side of stock deduction: stock keys, idempotency receipts and their TTLs, deductions through &lt;tt&gt;FCALL&lt;/tt&gt;, and the Redis Functions libraries that implement them.&lt;/p&gt;&lt;p&gt;Connected to &lt;b&gt;%2&lt;/b&gt; (%3).&lt;/p&gt;&lt;p&gt;Built with Qt %4 and hiredis.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Inventory Console %1&lt;/h3&gt;&lt;p&gt;面向库存扣减 Redis 一侧的管理控制台：库存键、幂等回执及其 TTL、通过 &lt;tt&gt;FCALL&lt;/tt&gt; 执行的扣减，以及实现它们的 Redis Functions 函数库。&lt;/p&gt;&lt;p&gt;已连接到 &lt;b&gt;%2&lt;/b&gt; (%3)。&lt;/p&gt;&lt;p&gt;基于 Qt %4 和 hiredis 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Re&amp;concile</source>
        <translation>对账(&amp;C)</translation>
    </message>
    <message>
        <source>The demo&apos;s order ledger could not be planted: %1</source>
        <translation>无法写入演示的订单账：%1</translation>
    </message>
    <message>
        <source>Demo: a SQLite order ledger of %1 rows was written beside the demo server, with planted divergences (%2). Press Run. Releases and adjustments need inventory_lib_v1 1.3.0: the demo starts with 1.0.0, so load the shipped release from the Libraries tab first.</source>
        <translation>演示：已在演示服务器旁写入一个 %1 行的 SQLite 订单账，其中预置了分叉（%2）。请按“运行”。释放和调整需要 inventory_lib_v1 1.3.0：演示从 1.0.0 开始，请先在“函数库”标签页加载随附的版本。</translation>
    </message>
</context>
<context>
    <name>ui::NodeMatrixView</name>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>other version</source>
        <translation>其他版本</translation>
    </message>
    <message>
        <source>other code, same version</source>
        <translation>代码不同，版本相同</translation>
    </message>
    <message>
        <source>Bring nodes in line…</source>
        <translation>使节点一致…</translation>
    </message>
    <message>
        <source>Load the selected node&apos;s copy of the library (or the copy most nodes hold) onto every primary that differs, behind the same guards as a load</source>
        <translation>将选中节点上的函数库副本（或多数节点持有的副本）加载到每个不一致的主节点上，使用与加载相同的防护</translation>
    </message>
    <message>
        <source>Libraries by node</source>
        <translation>各节点的函数库</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>primary</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>replica of %1</source>
        <translation>%1 的副本</translation>
    </message>
    <message>
        <source>could not read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>in line</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>Drift: FUNCTION LOAD is not propagated between shards, and these nodes differ:</source>
        <translation>漂移：FUNCTION LOAD 不会在分片之间传播，以下节点不一致：</translation>
    </message>
    <message>
        <source>Drift: these nodes differ:</source>
        <translation>漂移：以下节点不一致：</translation>
    </message>
    <message>
        <source>Replicas follow their primary: bringing the primaries in line brings them too.</source>
        <translation>副本跟随其主节点：让主节点一致，副本也随之一致。</translation>
    </message>
    <message>
        <source>In line: the %1 nodes (%2, %3) hold the same libraries.</source>
        <translation>一致：%1 个节点（%2，%3）持有相同的函数库。</translation>
    </message>
    <message>
        <source>1 primary</source>
        <translation>1 个主节点</translation>
    </message>
    <message>
        <source>%1 primaries</source>
        <translation>%1 个主节点</translation>
    </message>
    <message>
        <source>1 replica</source>
        <translation>1 个副本</translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 个副本</translation>
    </message>
    <message>
        <source>Not every node could be checked:</source>
        <translation>并非每个节点都能检查：</translation>
    </message>
    <message>
        <source>Bring %1 in line with %2…</source>
        <translation>使 %1 与 %2 一致…</translation>
    </message>
    <message>
        <source>Every primary holds the same copy of the selected library</source>
        <translation>每个主节点都持有选中函数库的相同副本</translation>
    </message>
    <message>
        <source>Loads %1 as %2 holds it onto %3, behind the same guards as a load</source>
        <translation>将 %2 所持有的 %1 加载到 %3 上，使用与加载相同的防护</translation>
    </message>
</context>
<context>
    <name>ui::OrderLookupView</name>
    <message>
        <source>Type an order id and press Enter. Each receipt found is explained: what the order deducted, how much was left, and until when a retry returns the first result.</source>
        <translation>输入订单号并按回车。找到的每条回执都会附有说明：该订单扣减了什么、剩余多少，以及重试在何时之前会返回第一次的结果。</translation>
    </message>
    <message>
        <source>Order id:</source>
        <translation>订单号：</translation>
    </message>
    <message>
        <source>e.g. 9001: finds its receipts in every SKU</source>
        <translation>例如 9001：在每个 SKU 中查找它的回执</translation>
    </message>
    <message>
        <source>Look up</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Copy receipt key</source>
        <translation>复制回执键</translation>
    </message>
    <message>
        <source>Set TTL…</source>
        <translation>设置 TTL…</translation>
    </message>
    <message>
        <source>Delete receipt…</source>
        <translation>删除回执…</translation>
    </message>
    <message>
        <source>Show in audit log</source>
        <translation>在审计日志中显示</translation>
    </message>
    <message>
        <source>Searching every SKU&apos;s receipts… %1 % of the keyspace</source>
        <translation>正在搜索每个 SKU 的回执… 已完成键空间的 %1 %</translation>
    </message>
    <message>
        <source>%1 for order %2; searched all %3 keys in %4 s.</source>
        <translation>订单 %2：%1；已在 %4 秒内搜索全部 %3 个键。</translation>
    </message>
    <message>
        <source>Search cancelled: the receipts listed may not be all.</source>
        <translation>搜索已取消：列出的回执可能不全。</translation>
    </message>
    <message>
        <source>Search failed: %1</source>
        <translation>搜索失败：%1</translation>
    </message>
    <message>
        <source>Copied key %1</source>
        <translation>已复制键 %1</translation>
    </message>
    <message>
        <source>Type an order id first.</source>
        <translation>请先输入订单号。</translation>
    </message>
    <message>
        <source>Finding out whether the server is a cluster before searching…</source>
        <translation>搜索前正在确认服务器是否为集群…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Could not read this console&apos;s audit log: %1</source>
        <translation>无法读取本控制台的审计日志：%1</translation>
    </message>
    <message>
        <source>Show this order in the audit log</source>
        <translation>在审计日志中显示此订单</translation>
    </message>
    <message>
        <source>&lt;p&gt;Searching for order %1…&lt;/p&gt;</source>
        <translation>&lt;p&gt;正在搜索订单 %1…&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Look for this order in the audit log</source>
        <translation>在审计日志中查找此订单</translation>
    </message>
    <message>
        <source>This order&apos;s records for the selected SKU in the audit log</source>
        <translation>审计日志中此订单在选中 SKU 上的记录</translation>
    </message>
    <message>
        <source>This order&apos;s records in the audit log, in every SKU</source>
        <translation>审计日志中此订单在所有 SKU 上的记录</translation>
    </message>
</context>
<context>
    <name>ui::OutcomesPage</name>
    <message>
        <source>Deduction outcomes in this session</source>
        <translation>本会话中的扣减结果</translation>
    </message>
    <message>
        <source>Deduction outcomes in the audit log</source>
        <translation>审计日志中的扣减结果</translation>
    </message>
    <message>
        <source>Last hour (per 5 min)</source>
        <translation>最近一小时（每 5 分钟）</translation>
    </message>
    <message>
        <source>Last day (per 2 hours)</source>
        <translation>最近一天（每 2 小时）</translation>
    </message>
    <message>
        <source>Last week (per day)</source>
        <translation>最近一周（每天）</translation>
    </message>
    <message>
        <source>Last 30 days (per 3 days)</source>
        <translation>最近 30 天（每 3 天）</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>%1 started</source>
        <translation>%1开始</translation>
    </message>
    <message>
        <source>minute</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>No deduction in this session yet — deductions made on the Deductions tab appear here by outcome</source>
        <translation>本会话中还没有扣减 —— 在“扣减”页进行的扣减会按结果显示在这里</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>No audit log yet at %1: it is written at the first deduction.</source>
        <translation>%1 处还没有审计日志：首次扣减时会写入。</translation>
    </message>
    <message>
        <source>%1 deductions in the period, from %2.</source>
        <translation>本时段内 %1 次扣减，来自 %2。</translation>
    </message>
    <message>
        <source>period started</source>
        <translation>时段开始</translation>
    </message>
    <message>
        <source>No deduction recorded in the audit log in this period</source>
        <translation>本时段内审计日志中没有记录扣减</translation>
    </message>
</context>
<context>
    <name>ui::PassphraseDialog</name>
    <message>
        <source>SSH key passphrase</source>
        <translation>SSH 密钥口令</translation>
    </message>
    <message>
        <source>The bastion %1 refused the key %2. If the key has a passphrase, enter it to connect; if it has none, the bastion does not accept this key.</source>
        <translation>堡垒机 %1 拒绝了密钥 %2。如果该密钥有口令，请输入后连接；如果没有，说明堡垒机不接受此密钥。</translation>
    </message>
    <message>
        <source>The passphrase given was not accepted.</source>
        <translation>提供的口令未被接受。</translation>
    </message>
    <message>
        <source>Passphrase</source>
        <translation>口令</translation>
    </message>
    <message>
        <source>&amp;Passphrase:</source>
        <translation>口令(&amp;P)：</translation>
    </message>
    <message>
        <source>Kept in memory for this window&apos;s tunnel only (to reconnect); never saved.</source>
        <translation>仅为本窗口的隧道保存在内存中（用于重连）；从不保存到磁盘。</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
</context>
<context>
    <name>ui::PreflightPage</name>
    <message>
        <source>Unlock this production session…</source>
        <translation>解锁此生产环境会话…</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>Step 3 of 6 · Preflight</source>
        <translation>第 3 步，共 6 步 · 预检</translation>
    </message>
    <message>
        <source>Whether this session may make the change: the environment guard, and an ACL DRYRUN of the change and of the backup&apos;s FUNCTION DUMP for %1, who runs every step.</source>
        <translation>本会话能否做出此改动：环境防护，以及以 %1（执行每一步的身份）对改动和备份所需的 FUNCTION DUMP 做的 ACL DRYRUN。</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Preflight checks</source>
        <translation>预检项目</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>✖ refused</source>
        <translation>✖ 已拒绝</translation>
    </message>
    <message>
        <source>⚠ warning</source>
        <translation>⚠ 警告</translation>
    </message>
    <message>
        <source>✔ passed</source>
        <translation>✔ 通过</translation>
    </message>
    <message>
        <source>The change cannot be made from this session:
%1</source>
        <translation>无法从本会话做出此改动：
%1</translation>
    </message>
    <message>
        <source>The change may go ahead, but not every check passed: %1.
• %2
Next: a backup of what the server holds now.</source>
        <translation>改动可以继续，但并非所有检查都通过：%1。
• %2
下一步：备份服务器当前持有的内容。</translation>
    </message>
    <message>
        <source>one warning</source>
        <translation>一个警告</translation>
    </message>
    <message>
        <source>%1 warnings</source>
        <translation>%1 个警告</translation>
    </message>
    <message>
        <source>Every check passed. Next: a backup of what the server holds now.</source>
        <translation>所有检查都已通过。下一步：备份服务器当前持有的内容。</translation>
    </message>
</context>
<context>
    <name>ui::ProfileListPanel</name>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制一份</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Saved profiles</source>
        <translation>已保存的配置</translation>
    </message>
    <message>
        <source>Saved profiles:</source>
        <translation>已保存的配置：</translation>
    </message>
    <message>
        <source>None yet. Fill in the form (or paste a URL), then Save or Connect: the profile appears here.</source>
        <translation>暂无。填写表单（或粘贴 URL），然后点“保存”或“连接”：配置会出现在这里。</translation>
    </message>
    <message>
        <source> · SSH</source>
        <translation> · SSH</translation>
    </message>
    <message>
        <source>%1, through the SSH bastion %2</source>
        <translation>%1，经 SSH 堡垒机 %2</translation>
    </message>
</context>
<context>
    <name>ui::ReadinessPanel</name>
    <message>
        <source>Not checked yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <source>&amp;Re-check</source>
        <translation>重新检查(&amp;R)</translation>
    </message>
    <message>
        <source>Read the server again and re-run every rule (F5)</source>
        <translation>重新读取服务器并重新运行每条规则 (F5)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the findings as Markdown or HTML for a release ticket</source>
        <translation>将检查结果保存为 Markdown 或 HTML，用于发布工单</translation>
    </message>
    <message>
        <source>Waiting for the key scan…</source>
        <translation>正在等待键扫描…</translation>
    </message>
    <message>
        <source>The receipt and stock rules read the Keys tab&apos;s scan.</source>
        <translation>回执和库存规则读取“键”页的扫描结果。</translation>
    </message>
    <message>
        <source>Scanning the keys…</source>
        <translation>正在扫描键…</translation>
    </message>
    <message>
        <source>The receipt and stock rules need a scan of the stock and receipt keys; the Keys tab shows the same scan.</source>
        <translation>回执和库存规则需要扫描库存键和回执键；“键”页显示的是同一次扫描。</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>SKUs matching &apos;%1&apos; (the Keys tab&apos;s filter)</source>
        <translation>匹配“%1”的 SKU（“键”页的筛选条件）</translation>
    </message>
    <message>
        <source>%1 pass, %2 warn, %3 fail, %4 could not check — %5 as user &apos;%6&apos;, checked %7. The same audit runs headless: inventory-cli audit.</source>
        <translation>通过 %1，警告 %2，失败 %3，无法检查 %4 —— 以用户“%6”访问 %5，检查于 %7。同样的审计可以无界面运行：inventory-cli audit。</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>HTML, one self-contained file (*.html)</source>
        <translation>HTML，单个自包含文件 (*.html)</translation>
    </message>
    <message>
        <source>Export the readiness report</source>
        <translation>导出就绪检查报告</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>The report was not saved: %1. Choose another folder.</source>
        <translation>报告未保存：%1。请选择另一个文件夹。</translation>
    </message>
</context>
<context>
    <name>ui::ReceiptExpiryPage</name>
    <message>
        <source>Receipt expiry from the last scan</source>
        <translation>上次扫描的回执过期情况</translation>
    </message>
    <message>
        <source>receipts</source>
        <translation>回执</translation>
    </message>
    <message>
        <source>expires in (from now), receipts</source>
        <translation>（从现在起）多久后过期，回执</translation>
    </message>
    <message>
        <source>receipts (log scale)</source>
        <translation>回执（对数刻度）</translation>
    </message>
    <message>
        <source>Recount</source>
        <translation>重新计数</translation>
    </message>
    <message>
        <source>Count again from the last scan, at the current time</source>
        <translation>按当前时间从上次扫描重新计数</translation>
    </message>
    <message>
        <source>No scan yet — open the Keys tab to scan; receipts are counted from its result</source>
        <translation>尚未扫描 —— 打开“键”页进行扫描；回执按其结果计数</translation>
    </message>
    <message>
        <source>%1 receipts in the scan%7, counted at %2. Already expired: %8; without a TTL: %9. Expiring within a minute: %3, an hour: %4, a day: %5, a week: %6. A retry of those orders is answered &quot;already applied&quot; only until its receipt expires; after that it deducts again.</source>
        <translation>%7扫描中有 %1 条回执，计数于 %2。已过期：%8；没有 TTL：%9。一分钟内过期：%3，一小时内：%4，一天内：%5，一周内：%6。这些订单的重试只在回执过期前才会得到“已执行”的应答；之后会再次扣减。</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation>%1 的</translation>
    </message>
    <message>
        <source>The last scan found no receipt</source>
        <translation>上次扫描没有找到回执</translation>
    </message>
</context>
<context>
    <name>ui::ReconcileFindingsModel</name>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Since the run</source>
        <translation>运行之后</translation>
    </message>
    <message>
        <source>What happened, and what to do</source>
        <translation>发生了什么，该怎么做</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
</context>
<context>
    <name>ui::ReconcileJob</name>
    <message>
        <source>could not read the ledger: %1</source>
        <translation>无法读取订单账：%1</translation>
    </message>
    <message>
        <source>a time window needs the ledger&apos;s time column</source>
        <translation>时间窗口需要订单账的时间列</translation>
    </message>
</context>
<context>
    <name>ui::ReconcilePanel</name>
    <message>
        <source>&amp;Run reconciliation</source>
        <translation>运行对账(&amp;R)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Compares every receipt in Redis with the ledger&apos;s order lines; nothing is written on either side.</source>
        <translation>将 Redis 中的每条回执与订单账的订单行比较；两边都不写入任何内容。</translation>
    </message>
    <message>
        <source>Scanning Redis: %1 of about %2 keys…</source>
        <translation>正在扫描 Redis：%1 / 约 %2 个键…</translation>
    </message>
    <message>
        <source>Scanning Redis: %1 keys…</source>
        <translation>正在扫描 Redis：%1 个键…</translation>
    </message>
    <message>
        <source>the scan of Redis did not finish: %1</source>
        <translation>Redis 扫描未完成：%1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Reading the ledger: %1 rows compared so far…</source>
        <translation>正在读取订单账：已比较 %1 行…</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>What needs acting on comes first; click a column&apos;s title to sort by it.</source>
        <translation>需要处理的排在前面；点击列标题可按该列排序。</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Per SKU</source>
        <translation>按 SKU</translation>
    </message>
    <message>
        <source>R&amp;elease…</source>
        <translation>释放(&amp;E)…</translation>
    </message>
    <message>
        <source>Give back what the selected release candidate&apos;s order deducted, once (FCALL inventory_release_v1).</source>
        <translation>归还所选待释放订单扣减的库存，仅一次（FCALL inventory_release_v1）。</translation>
    </message>
    <message>
        <source>Ad&amp;just stock…</source>
        <translation>调整库存(&amp;J)…</translation>
    </message>
    <message>
        <source>Correct the selected finding&apos;s SKU by hand, once per adjustment id, with a reason (FCALL inventory_adjust_v1).</source>
        <translation>手工修正所选发现的 SKU 库存，每个调整 ID 仅一次，需填写原因（FCALL inventory_adjust_v1）。</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <source>Nothing was run: %1</source>
        <translation>未运行：%1</translation>
    </message>
    <message>
        <source>Scanning Redis…</source>
        <translation>正在扫描 Redis…</translation>
    </message>
    <message>
        <source>Reading the ledger…</source>
        <translation>正在读取订单账…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Releasing…</source>
        <translation>正在释放…</translation>
    </message>
    <message>
        <source>Adjusting…</source>
        <translation>正在调整…</translation>
    </message>
    <message>
        <source>The loaded library has no %1: it came with inventory_lib_v1 1.3.0. Load that release from the Libraries tab, then try again.</source>
        <translation>已加载的函数库没有 %1：它随 inventory_lib_v1 1.3.0 提供。请在“函数库”标签页加载该版本后重试。</translation>
    </message>
    <message>
        <source>Warning: the audit log did not take the outcome record: %1</source>
        <translation>警告：审计日志未能写入结果记录：%1</translation>
    </message>
    <message>
        <source>Audit log: %1. The summary above is the run&apos;s: run the reconciliation again to read both sides anew.</source>
        <translation>审计日志：%1。上方摘要属于本次运行：请再次运行对账以重新读取两边。</translation>
    </message>
    <message>
        <source>not released: %1</source>
        <translation>未释放：%1</translation>
    </message>
    <message>
        <source>adjusted by %1 (id %2): %3</source>
        <translation>已调整 %1（ID %2）：%3</translation>
    </message>
    <message>
        <source>released: %1 read back (%2)</source>
        <translation>已释放：已读回 %1（%2）</translation>
    </message>
    <message>
        <source>Order %1&apos;s deduction of SKU %2 was released (the release key %3 holds %4): nothing more to do.</source>
        <translation>订单 %1 对 SKU %2 的扣减已释放（释放键 %3 的值为 %4）：无需再做任何事。</translation>
    </message>
    <message>
        <source>could not read %1 (%2)</source>
        <translation>无法读取 %1（%2）</translation>
    </message>
    <message>
        <source>%1 holds %2, which no release writes</source>
        <translation>%1 的值为 %2，这不是释放会写入的内容</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>not proven released: %1</source>
        <translation>未证实已释放：%1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Done at %1: %2 ledger rows read, %3 compared.</source>
        <translation>完成于 %1：读取 %2 行订单账，比较 %3 行。</translation>
    </message>
    <message>
        <source>Could not check: %1. Nothing was compared.</source>
        <translation>无法核对：%1。未比较任何内容。</translation>
    </message>
    <message>
        <source>%1 in-line findings beyond the first %2 are counted, not listed.</source>
        <translation>前 %2 条之后的 %1 条一致发现只计数，不列出。</translation>
    </message>
    <message>
        <source>Could not check: %1. The findings below are what was read before it stopped: nothing may be concluded from them, and an order missing from them is not in line.</source>
        <translation>无法核对：%1。下面的发现是停止前读到的内容：不能据此得出任何结论，未出现在其中的订单也不代表一致。</translation>
    </message>
    <message>
        <source>%1: %2. Select one to read what happened and what to do.</source>
        <translation>%1：%2。选择一条可查看发生了什么以及该怎么做。</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s) need attention</source>
        <translation>
            <numerusform>%n 条发现需要处理</numerusform>
        </translation>
    </message>
    <message>
        <source>Everything compared is in line (%1).</source>
        <translation>所比较的全部一致（%1）。</translation>
    </message>
    <message>
        <source>All classes (%1)</source>
        <translation>全部类别（%1）</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>发现（%1）</translation>
    </message>
    <message>
        <source>Per SKU (%1)</source>
        <translation>按 SKU（%1）</translation>
    </message>
    <message>
        <source>Select a finding to read it whole.</source>
        <translation>选择一条发现以查看全文。</translation>
    </message>
    <message>
        <source>
Since the run: %1</source>
        <translation>
运行之后：%1</translation>
    </message>
    <message>
        <source>Export the report as Markdown</source>
        <translation>将报告导出为 Markdown</translation>
    </message>
    <message>
        <source>Export the findings as CSV</source>
        <translation>将发现导出为 CSV</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>未导出：%1</translation>
    </message>
    <message>
        <source>Exported to %1 (readable by you only).</source>
        <translation>已导出到 %1（仅你本人可读）。</translation>
    </message>
    <message>
        <source>order %1: %2</source>
        <translation>订单 %1：%2</translation>
    </message>
    <message>
        <source>All %1 releases of the selection were sent, each audited:</source>
        <translation>所选的全部 %1 次释放均已发送，每次均已记入审计：</translation>
    </message>
    <message numerus="yes">
        <source>Release %1 of %2 stopped the selection: the %n after it were not sent.</source>
        <translation>
            <numerusform>第 %1/%2 次释放使所选操作停止：其后的 %n 次未发送。</numerusform>
        </translation>
    </message>
    <message>
        <source>All %1 releases of the selection were sent, each audited; the last was not applied:</source>
        <translation>所选的全部 %1 次释放均已发送，每次均已记入审计；最后一次未生效：</translation>
    </message>
    <message numerus="yes">
        <source>R&amp;elease %n…</source>
        <translation>
            <numerusform>释放 %n 个(&amp;E)…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::RepairDialog</name>
    <message>
        <source>Release a deduction</source>
        <translation>释放一次扣减</translation>
    </message>
    <message>
        <source>Adjust a stock</source>
        <translation>调整库存</translation>
    </message>
    <message>
        <source>Gives back what order &lt;b&gt;%1&lt;/b&gt; deducted from SKU &lt;b&gt;%2&lt;/b&gt;, once: the function checks that the receipt still proves the deduction and writes a release key, so a second release changes nothing.</source>
        <translation>归还订单 &lt;b&gt;%1&lt;/b&gt; 从 SKU &lt;b&gt;%2&lt;/b&gt; 扣减的库存，仅一次：函数会检查回执仍能证明该扣减，并写入释放键，因此第二次释放不会改变任何内容。</translation>
    </message>
    <message>
        <source>Corrects the stock of SKU &lt;b&gt;%1&lt;/b&gt; by hand, once per adjustment id: a second call with the same id changes nothing. The function refuses a stock below 0.</source>
        <translation>手工修正 SKU &lt;b&gt;%1&lt;/b&gt; 的库存，每个调整 ID 仅一次：使用相同 ID 的第二次调用不会改变任何内容。函数拒绝使库存低于 0。</translation>
    </message>
    <message>
        <source>Connection:</source>
        <translation>连接：</translation>
    </message>
    <message>
        <source>(unsaved connection)</source>
        <translation>（未保存的连接）</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Before it is sent, the attempt (with the reason and %1 read just before) is appended to the audit log %2; its outcome follows it.</source>
        <translation>发送之前，此次尝试（连同原因及刚读取的%1）会追加到审计日志 %2；其结果随后记录。</translation>
    </message>
    <message>
        <source>the receipt and the release key</source>
        <translation>回执和释放键</translation>
    </message>
    <message>
        <source>the adjustment key</source>
        <translation>调整键</translation>
    </message>
    <message>
        <source>Audit:</source>
        <translation>审计：</translation>
    </message>
    <message>
        <source>Unlock writes…</source>
        <translation>解锁写入…</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>Adjust</source>
        <translation>调整</translation>
    </message>
    <message>
        <source>e.g. 3 or -2</source>
        <translation>例如 3 或 -2</translation>
    </message>
    <message>
        <source>The adjustment&apos;s idempotency id: sending the same id again changes nothing. Keep it when you retry.</source>
        <translation>调整的幂等 ID：再次发送相同 ID 不会改变任何内容。重试时请保留它。</translation>
    </message>
    <message>
        <source>Why the stock is corrected (required, kept in the audit log)</source>
        <translation>修正库存的原因（必填，记入审计日志）</translation>
    </message>
    <message>
        <source>Delta:</source>
        <translation>变化量：</translation>
    </message>
    <message>
        <source>Adjustment id:</source>
        <translation>调整 ID：</translation>
    </message>
    <message>
        <source>reason: give one; it is what the audit log keeps of why</source>
        <translation>原因：请填写；审计日志据此记录原因</translation>
    </message>
    <message>
        <source>(no command until every field is valid)</source>
        <translation>（所有字段有效之前没有命令）</translation>
    </message>
    <message>
        <source>Gives back %1 unit(s), as the finding says; the release key lives %2 s (the profile&apos;s receipt TTL), so it outlives the receipt it answers for.</source>
        <translation>按发现所述归还 %1 件；释放键存活 %2 秒（配置的回执 TTL），因此比它所对应的回执存活更久。</translation>
    </message>
    <message>
        <source>The adjustment key lives %1 s (the profile&apos;s receipt TTL): while it does, the same id changes nothing.</source>
        <translation>调整键存活 %1 秒（配置的回执 TTL）：在此期间，相同 ID 不会改变任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>Gives back what each of these %n orders deducted, each once: the function checks that each receipt still proves its deduction and writes a release key, so a second release changes nothing. They are sent one after the other; the first that is refused or whose outcome is unknown stops the rest.</source>
        <translation>
            <numerusform>归还这 %n 个订单各自扣减的库存，每个仅一次：函数会检查每条回执仍能证明其扣减，并写入释放键，因此第二次释放不会改变任何内容。它们逐个发送；第一个被拒绝或结果未知的会使其余的停止发送。</numerusform>
        </translation>
    </message>
    <message>
        <source>each release is audited with its own finding</source>
        <translation>每次释放都连同其自身的发现记入审计</translation>
    </message>
    <message numerus="yes">
        <source>Release %n orders</source>
        <translation>
            <numerusform>释放 %n 个订单</numerusform>
        </translation>
    </message>
    <message>
        <source>Gives back each order&apos;s quantity, as its finding says; each release key lives %1 s (the profile&apos;s receipt TTL), so it outlives the receipt it answers for.</source>
        <translation>按各自发现所述归还每个订单的数量；每个释放键存活 %1 秒（配置的回执 TTL），因此比它所对应的回执存活更久。</translation>
    </message>
</context>
<context>
    <name>ui::ResultCard</name>
    <message>
        <source>Stock just before</source>
        <translation>扣减前一刻的库存</translation>
    </message>
    <message>
        <source>Stock just after</source>
        <translation>扣减后一刻的库存</translation>
    </message>
    <message>
        <source>Receipt after</source>
        <translation>扣减后的回执</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Last check</source>
        <translation>最近检查</translation>
    </message>
    <message>
        <source>Check receipt</source>
        <translation>检查回执</translation>
    </message>
    <message>
        <source>Retry with the same order id…</source>
        <translation>用同一订单号重试…</translation>
    </message>
    <message>
        <source>No deduction yet</source>
        <translation>尚无扣减</translation>
    </message>
    <message>
        <source>Fill in the form and press Run (Ctrl+Enter). You will see the exact command before anything is sent.</source>
        <translation>填写表单并按“运行”(Ctrl+Enter)。发送任何内容之前你都会看到确切的命令。</translation>
    </message>
    <message>
        <source>Retrying…</source>
        <translation>正在重试…</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Sent; waiting for the reply. Until it comes, the outcome is not known.</source>
        <translation>已发送；正在等待应答。应答到来之前，结果未知。</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>正在发送</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>检查中…</translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <source>Not sent</source>
        <translation>未发送</translation>
    </message>
    <message>
        <source>Receipt check</source>
        <translation>回执检查</translation>
    </message>
    <message>
        <source>Stock check</source>
        <translation>库存检查</translation>
    </message>
    <message>
        <source> — recorded quantity %1</source>
        <translation> —— 记录的数量 %1</translation>
    </message>
    <message>
        <source> — recorded remaining %1</source>
        <translation> —— 记录的剩余量 %1</translation>
    </message>
    <message>
        <source> — remaining %1</source>
        <translation> —— 剩余 %1</translation>
    </message>
    <message>
        <source> — stock %1</source>
        <translation> —— 库存 %1</translation>
    </message>
    <message>
        <source>not read (use the check below)</source>
        <translation>未读取（请使用下方的检查）</translation>
    </message>
    <message>
        <source>read failed: %1</source>
        <translation>读取失败：%1</translation>
    </message>
    <message>
        <source>%1 = %2, TTL %3</source>
        <translation>%1 = %2，TTL %3</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>not read (use Check receipt)</source>
        <translation>未读取（请使用“检查回执”）</translation>
    </message>
    <message>
        <source>none: the script keeps no receipt</source>
        <translation>无：脚本不保留回执</translation>
    </message>
    <message>
        <source>no reply after %1 ms</source>
        <translation>%1 毫秒后仍无应答</translation>
    </message>
    <message>
        <source>reply in %1 ms</source>
        <translation>%1 毫秒内应答</translation>
    </message>
    <message>
        <source>server run_id %1</source>
        <translation>服务器 run_id %1</translation>
    </message>
    <message>
        <source>NOSCRIPT: the script was loaded and the call sent once more (safe: NOSCRIPT proves it had not run)</source>
        <translation>NOSCRIPT：已加载脚本并再次发送调用（安全：NOSCRIPT 证明它之前没有执行）</translation>
    </message>
    <message>
        <source>reply %1</source>
        <translation>应答 %1</translation>
    </message>
    <message>
        <source>WARNING: audit record not written: %1</source>
        <translation>警告：审计记录未写入：%1</translation>
    </message>
    <message>
        <source>%1 (checked %2)</source>
        <translation>%1（检查于 %2）</translation>
    </message>
    <message>
        <source>Check stock</source>
        <translation>检查库存</translation>
    </message>
    <message>
        <source>Run again…</source>
        <translation>再次运行…</translation>
    </message>
    <message>
        <source>Retry (may deduct twice)…</source>
        <translation>重试（可能重复扣减）…</translation>
    </message>
</context>
<context>
    <name>ui::ResultPage</name>
    <message>
        <source>Step 6 of 6 · Result</source>
        <translation>第 6 步，共 6 步 · 结果</translation>
    </message>
    <message>
        <source>What each node holds now, read back from the server by %1.</source>
        <translation>每个节点现在持有的内容，由 %1 从服务器读回。</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束状态</translation>
    </message>
    <message>
        <source>Holds now (read back)</source>
        <translation>当前持有（读回）</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
    <message>
        <source>Nothing was sent: %1</source>
        <translation>未发送任何内容：%1</translation>
    </message>
    <message>
        <source>Done: %1 verified on every node, audit record written.</source>
        <translation>完成：%1 已在每个节点上验证，审计记录已写入。</translation>
    </message>
    <message>
        <source>The change failed on one node, so the nodes already changed were rolled back to the backup and the ones after it left as they were: the table says where each node ended.</source>
        <translation>改动在一个节点上失败，因此已改动的节点已回滚到备份，之后的节点保持原样：表格列出每个节点的最终状态。</translation>
    </message>
    <message>
        <source>The change did not go through everywhere: read each node&apos;s line. Nodes after a failed one were left as they were.</source>
        <translation>改动没有在所有节点上完成：请查看每个节点的那一行。失败节点之后的节点保持原样。</translation>
    </message>
    <message>
        <source>Backup of the state before: %1</source>
        <translation>改动前状态的备份：%1</translation>
    </message>
</context>
<context>
    <name>ui::RollbackDialog</name>
    <message>
        <source>Roll back</source>
        <translation>回滚</translation>
    </message>
    <message>
        <source>Choose the state to go back to. A backup is written before every load, delete and rollback; each row is the state just before that change. Nothing changes until the last step of the wizard that follows.</source>
        <translation>选择要回退到的状态。每次加载、删除和回滚之前都会写入备份；每一行是那次改动之前的状态。在随后向导的最后一步之前，不会做任何改动。</translation>
    </message>
    <message>
        <source>Other file…</source>
        <translation>其他文件…</translation>
    </message>
    <message>
        <source>Continue…</source>
        <translation>继续…</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>函数库</translation>
    </message>
    <message>
        <source>Version then</source>
        <translation>当时版本</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Taken</source>
        <translation>备份时间</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <source>No backups in %1 yet: every load writes one there. Use &quot;Other file…&quot; for a backup kept elsewhere.</source>
        <translation>%1 中还没有备份：每次加载都会在那里写入一个。对保存在别处的备份，请使用“其他文件…”。</translation>
    </message>
    <message>
        <source>Put this library&apos;s code back as it was (recommended)</source>
        <translation>将此函数库的代码恢复原样（推荐）</translation>
    </message>
    <message>
        <source>Loads the library&apos;s code from the backup with FUNCTION LOAD REPLACE, or deletes the library if it did not exist then. No other library is touched.</source>
        <translation>用 FUNCTION LOAD REPLACE 从备份加载该函数库的代码；如果当时它不存在，则删除该函数库。不触及其他函数库。</translation>
    </message>
    <message>
        <source>Restore the whole dump, replacing libraries of the same name (REPLACE)</source>
        <translation>恢复整个转储，替换同名函数库 (REPLACE)</translation>
    </message>
    <message>
        <source>FUNCTION RESTORE REPLACE: every library in the backup is put back, replacing a loaded library of the same name. Libraries loaded since the backup stay.</source>
        <translation>FUNCTION RESTORE REPLACE：备份中的每个函数库都会被放回，替换已加载的同名函数库。备份之后加载的函数库保留。</translation>
    </message>
    <message>
        <source>Restore the whole dump after removing every library (FLUSH)</source>
        <translation>删除所有函数库后恢复整个转储 (FLUSH)</translation>
    </message>
    <message>
        <source>FUNCTION RESTORE FLUSH: deletes every loaded library first, then loads the backup&apos;s. The node ends up exactly as it was; libraries loaded since are gone.</source>
        <translation>FUNCTION RESTORE FLUSH：先删除所有已加载的函数库，再加载备份中的。节点最终与当时完全一致；之后加载的函数库将被移除。</translation>
    </message>
    <message>
        <source>Add the dump&apos;s libraries to those loaded (APPEND)</source>
        <translation>将转储中的函数库添加到已加载的函数库中 (APPEND)</translation>
    </message>
    <message>
        <source>FUNCTION RESTORE APPEND: adds the backup&apos;s libraries and fails, changing nothing, if any of them is loaded already. Useful on an empty node.</source>
        <translation>FUNCTION RESTORE APPEND：添加备份中的函数库；如果其中任何一个已加载，则失败且不做任何改动。适用于空节点。</translation>
    </message>
    <message>
        <source>How to go back</source>
        <translation>回退方式</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>(every library)</source>
        <translation>（所有函数库）</translation>
    </message>
    <message>
        <source>%1 — another node</source>
        <translation>%1 —— 另一个节点</translation>
    </message>
    <message>
        <source>Taken on %1; this session is connected to %2.</source>
        <translation>备份于 %1；本会话连接的是 %2。</translation>
    </message>
    <message>
        <source>Roll back from a backup</source>
        <translation>从备份回滚</translation>
    </message>
    <message>
        <source>Backups (*.json)</source>
        <translation>备份 (*.json)</translation>
    </message>
    <message>
        <source>This backup was taken on another node (%1), not on %2: restore it here anyway</source>
        <translation>此备份取自另一个节点 (%1)，而不是 %2：仍然在这里恢复</translation>
    </message>
</context>
<context>
    <name>ui::ScanPaceControl</name>
    <message>
        <source>Fast scan</source>
        <translation>快速扫描</translation>
    </message>
    <message>
        <source>Gentle scan</source>
        <translation>温和扫描</translation>
    </message>
    <message>
        <source> keys/s</source>
        <translation> 键/秒</translation>
    </message>
    <message>
        <source>about %1 s</source>
        <translation>约 %1 秒</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>不限速</translation>
    </message>
    <message>
        <source>time known after DBSIZE</source>
        <translation>执行 DBSIZE 后可知耗时</translation>
    </message>
    <message>
        <source>This session is labelled %1: it starts %2.
</source>
        <translation>此会话标为 %1：它以%2方式开始。
</translation>
    </message>
    <message>
        <source>gentle</source>
        <translation>温和</translation>
    </message>
    <message>
        <source>fast</source>
        <translation>快速</translation>
    </message>
    <message>
        <source>Fast: several pages in flight and no cap, for local and test servers.
Gentle: one small page at a time and at most the keys/s set here, so that the server&apos;s other clients keep their latency (for production).
Now: %1. A change applies from the next scan.</source>
        <translation>快速：多个分页同时在途且不限速，适用于本地和测试服务器。
温和：每次一个小分页，且每秒最多扫描此处设定的键数，使服务器的其他客户端保持其延迟（适用于生产环境）。
当前：%1。更改从下一次扫描开始生效。</translation>
    </message>
    <message>
        <source>A scan of %1 keys at this pace takes about %2 s.</source>
        <translation>以此速度扫描 %1 个键大约需要 %2 秒。</translation>
    </message>
</context>
<context>
    <name>ui::SentinelForm</name>
    <message>
        <source>When Redis Sentinel chooses the primary, give the master name and the sentinels: the console asks them for the primary, confirms it with ROLE, and moves every connection to the new primary after a failover. Unlabelled, such a server is production.</source>
        <translation>由 Redis 哨兵选择主节点时，请填写主节点名称和哨兵：控制台会向它们询问主节点，用 ROLE 确认，并在故障转移后把所有连接迁移到新的主节点。未标注时，这类服务器按生产环境处理。</translation>
    </message>
    <message>
        <source>e.g. orders; empty: connect to the host directly</source>
        <translation>例如 orders；留空：直接连接主机</translation>
    </message>
    <message>
        <source>&amp;Master name:</source>
        <translation>主节点名称(&amp;M)：</translation>
    </message>
    <message>
        <source>10.0.4.7, 10.0.4.8:26380, sentinel-3.example.com</source>
        <translation>10.0.4.7, 10.0.4.8:26380, sentinel-3.example.com</translation>
    </message>
    <message>
        <source>Sentine&amp;ls:</source>
        <translation>哨兵(&amp;L)：</translation>
    </message>
    <message>
        <source>none, or the default user</source>
        <translation>无，或 default 用户</translation>
    </message>
    <message>
        <source>Sentinel &amp;ACL user:</source>
        <translation>哨兵 ACL 用户(&amp;A)：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The sentinels&apos; own password, not the data node&apos;s: kept like the other passwords of this profile.</source>
        <translation>哨兵自己的密码，而不是数据节点的：与此配置的其他密码一样保管。</translation>
    </message>
    <message>
        <source>Sentinel password:</source>
        <translation>哨兵密码：</translation>
    </message>
    <message>
        <source>host[:port], 26379 by default; list every sentinel you know, so that one down does not stop you.</source>
        <translation>host[:port]，默认端口 26379；列出你知道的每个哨兵，这样其中一个宕机也不会妨碍你。</translation>
    </message>
</context>
<context>
    <name>ui::SentinelOpener</name>
    <message>
        <source>Sentinel</source>
        <translation>哨兵</translation>
    </message>
    <message numerus="yes">
        <source>Asking %n sentinel(s) for the primary of &apos;%1&apos;…</source>
        <translation>
            <numerusform>正在向 %n 个哨兵询问“%1”的主节点…</numerusform>
        </translation>
    </message>
    <message>
        <source>Primary not found</source>
        <translation>未找到主节点</translation>
    </message>
    <message>
        <source>The sentinels did not name a primary for &apos;%1&apos; that this console could confirm; nothing was connected.</source>
        <translation>哨兵没有给出本控制台能确认的“%1”的主节点；未建立任何连接。</translation>
    </message>
</context>
<context>
    <name>ui::ServerChartsPage</name>
    <message>
        <source>Sample</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Memory used against maxmemory</source>
        <translation>已用内存与 maxmemory 对比</translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation>内存 (MiB)</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>commands/s</source>
        <translation>命令/秒</translation>
    </message>
    <message>
        <source>Evicted and expired keys</source>
        <translation>被淘汰和过期的键</translation>
    </message>
    <message>
        <source>keys/s</source>
        <translation>键/秒</translation>
    </message>
    <message>
        <source>Connected clients</source>
        <translation>已连接客户端</translation>
    </message>
    <message>
        <source>clients</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>FCALL latency: server vs console round trip</source>
        <translation>FCALL 延迟：服务器端与控制台往返</translation>
    </message>
    <message>
        <source>µs (log scale)</source>
        <translation>µs（对数刻度）</translation>
    </message>
    <message>
        <source>FCALL latency distribution on the server</source>
        <translation>服务器上的 FCALL 延迟分布</translation>
    </message>
    <message>
        <source>One pipelined round trip per node per interval: INFO and LATENCY HISTOGRAM</source>
        <translation>每个采样间隔每个节点一次流水线往返：INFO 和 LATENCY HISTOGRAM</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>every </source>
        <translation>每 </translation>
    </message>
    <message>
        <source>Last minute</source>
        <translation>最近一分钟</translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation>最近 5 分钟</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>server execution time (bucket upper bound)</source>
        <translation>服务器执行时间（桶的上界）</translation>
    </message>
    <message>
        <source>FCALL calls</source>
        <translation>FCALL 调用</translation>
    </message>
    <message>
        <source>used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>maxmemory</source>
        <translation>maxmemory</translation>
    </message>
    <message>
        <source>ops/s</source>
        <translation>操作/秒</translation>
    </message>
    <message>
        <source>FCALL/s</source>
        <translation>FCALL/秒</translation>
    </message>
    <message>
        <source>calls/s</source>
        <translation>调用/秒</translation>
    </message>
    <message>
        <source>evicted</source>
        <translation>被淘汰</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>server FCALL p50</source>
        <translation>服务器 FCALL p50</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>server FCALL p99</source>
        <translation>服务器 FCALL p99</translation>
    </message>
    <message>
        <source>console round trip p50</source>
        <translation>控制台往返 p50</translation>
    </message>
    <message>
        <source>console round trip p99</source>
        <translation>控制台往返 p99</translation>
    </message>
    <message>
        <source>maxmemory: no limit</source>
        <translation>maxmemory：无限制</translation>
    </message>
    <message>
        <source>maxmemory %1 (far above)</source>
        <translation>maxmemory %1（远高于此）</translation>
    </message>
    <message>
        <source>slower</source>
        <translation>更慢</translation>
    </message>
    <message>
        <source>FCALL calls since the server started or CONFIG RESETSTAT</source>
        <translation>自服务器启动或 CONFIG RESETSTAT 以来的 FCALL 调用</translation>
    </message>
    <message>
        <source>calls</source>
        <translation>调用</translation>
    </message>
    <message>
        <source>Sampling is off: tick Sample to start.</source>
        <translation>采样已关闭：勾选“采样”以开始。</translation>
    </message>
    <message>
        <source>%1 node(s), one pipelined round trip each per sample; an hour is kept</source>
        <translation>%1 个节点，每次采样各一次流水线往返；保留一小时</translation>
    </message>
    <message>
        <source>%1: last sample failed: %2</source>
        <translation>%1：上次采样失败：%2</translation>
    </message>
    <message>
        <source>%1 at %2: %3 used of %4</source>
        <translation>%1 于 %2：已用 %3 / %4</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>无限制</translation>
    </message>
    <message>
        <source>Could not read the server&apos;s FCALL latency:
%1</source>
        <translation>无法读取服务器的 FCALL 延迟：
%1</translation>
    </message>
    <message>
        <source>Server FCALL p50/p99 need two samples: the next one in %1 s</source>
        <translation>服务器 FCALL p50/p99 需要两次采样：下一次在 %1 秒后</translation>
    </message>
    <message>
        <source>in the hour up to %1</source>
        <translation>截至 %1 的一小时内</translation>
    </message>
    <message>
        <source>in the minute up to %1</source>
        <translation>截至 %1 的一分钟内</translation>
    </message>
    <message>
        <source>in the %1 minutes up to %2</source>
        <translation>截至 %2 的 %1 分钟内</translation>
    </message>
    <message>
        <source>in the %1 s sampled up to %2</source>
        <translation>截至 %2 的 %1 秒采样内</translation>
    </message>
    <message>
        <source>No FCALL ran %1:
no server FCALL p50/p99 to draw</source>
        <translation>%1没有执行 FCALL：
没有服务器 FCALL p50/p99 可绘制</translation>
    </message>
    <message>
        <source>(the lines are the console&apos;s own round trip)</source>
        <translation>（折线是控制台自己的往返时间）</translation>
    </message>
    <message>
        <source>No samples yet — sampling every %1 s</source>
        <translation>尚无采样 —— 每 %1 秒采样一次</translation>
    </message>
    <message>
        <source>Sampling is off — tick Sample above to start</source>
        <translation>采样已关闭 —— 勾选上方的“采样”以开始</translation>
    </message>
    <message>
        <source>The server gives no FCALL latency histogram (LATENCY HISTOGRAM needs Redis 7): %1</source>
        <translation>服务器不提供 FCALL 延迟直方图（LATENCY HISTOGRAM 需要 Redis 7）：%1</translation>
    </message>
    <message>
        <source>No FCALL on this server yet — make a deduction to see its latency here</source>
        <translation>此服务器上还没有 FCALL —— 进行一次扣减即可在这里看到其延迟</translation>
    </message>
</context>
<context>
    <name>ui::ServerOverviewPanel</name>
    <message>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>File &gt; Reconnect (Ctrl+R)</source>
        <translation>文件 &gt; 重新连接 (Ctrl+R)</translation>
    </message>
    <message>
        <source>Server overview</source>
        <translation>服务器概览</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>Role:</source>
        <translation>角色：</translation>
    </message>
    <message>
        <source>Uptime:</source>
        <translation>运行时间：</translation>
    </message>
    <message>
        <source>Memory and eviction</source>
        <translation>内存与淘汰</translation>
    </message>
    <message>
        <source>used_memory as a share of maxmemory</source>
        <translation>used_memory 占 maxmemory 的比例</translation>
    </message>
    <message>
        <source>Used:</source>
        <translation>已用：</translation>
    </message>
    <message>
        <source>Limit (maxmemory):</source>
        <translation>上限 (maxmemory)：</translation>
    </message>
    <message>
        <source>Eviction policy:</source>
        <translation>淘汰策略：</translation>
    </message>
    <message>
        <source>Keyspace</source>
        <translation>键空间</translation>
    </message>
    <message>
        <source>Function libraries:</source>
        <translation>函数库：</translation>
    </message>
    <message>
        <source>Loaded function libraries (FUNCTION LIST)</source>
        <translation>已加载的函数库 (FUNCTION LIST)</translation>
    </message>
    <message>
        <source>Waiting for the first answer from the server…</source>
        <translation>正在等待服务器的首次应答…</translation>
    </message>
    <message>
        <source>Loaded function libraries on %1 (FUNCTION LIST)</source>
        <translation>%1 上已加载的函数库 (FUNCTION LIST)</translation>
    </message>
    <message>
        <source>Keys in db %1:</source>
        <translation>db %1 中的键：</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>更新于 %1</translation>
    </message>
    <message>
        <source>Not loaded yet</source>
        <translation>尚未加载</translation>
    </message>
    <message>
        <source> · refreshing…</source>
        <translation> · 正在刷新…</translation>
    </message>
    <message>
        <source> · every %1 s · F5 refreshes now</source>
        <translation> · 每 %1 秒 · F5 立即刷新</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>not allowed for user %1</source>
        <translation>用户 %1 不允许</translation>
    </message>
    <message>
        <source>%1 % of the limit</source>
        <translation>上限的 %1 %</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>无限制</translation>
    </message>
    <message>
        <source>When memory reaches the %1 limit, Redis may delete</source>
        <translation>当内存达到 %1 上限时，Redis 可能会提前删除</translation>
    </message>
    <message>
        <source>No memory limit is set now, but once one is, Redis may delete</source>
        <translation>目前没有设置内存上限，但一旦设置，Redis 可能会提前删除</translation>
    </message>
    <message>
        <source>&lt;b&gt;Eviction can drop idempotency receipts.&lt;/b&gt; The policy is &lt;b&gt;%1&lt;/b&gt;. %2 receipts (&lt;tt&gt;idem:{sku}:order&lt;/tt&gt;, which have TTLs) before they expire. A receipt&apos;s TTL is the whole window of protection against a double deduction: an evicted receipt lets a retried order deduct stock again. Prefer &lt;tt&gt;noeviction&lt;/tt&gt; on servers that hold receipts.</source>
        <translation>&lt;b&gt;淘汰可能会删除幂等回执。&lt;/b&gt;策略是 &lt;b&gt;%1&lt;/b&gt;。%2回执（&lt;tt&gt;idem:{sku}:order&lt;/tt&gt;，它们带有 TTL），不等它们过期。回执的 TTL 就是防止重复扣减的全部保护窗口：被淘汰的回执会让重试的订单再次扣减库存。在保存回执的服务器上请优先使用 &lt;tt&gt;noeviction&lt;/tt&gt;。</translation>
    </message>
    <message>
        <source>FUNCTION LIST is not allowed for user %1: the loaded libraries are unknown here. The Libraries tab reads them as the release user, when the profile has one.</source>
        <translation>用户 %1 不允许执行 FUNCTION LIST：这里无法得知已加载的函数库。如果配置有发布用户，“函数库”页会以发布用户身份读取它们。</translation>
    </message>
    <message>
        <source>FUNCTION LIST failed: %1</source>
        <translation>FUNCTION LIST 失败：%1</translation>
    </message>
    <message>
        <source>No function libraries are loaded on this server.</source>
        <translation>此服务器上没有加载函数库。</translation>
    </message>
    <message>
        <source>The values below are from %1.</source>
        <translation>以下数值来自 %1。</translation>
    </message>
    <message>
        <source>Nothing has been loaded yet.</source>
        <translation>尚未加载任何内容。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not refresh the overview&lt;/b&gt; (%1): %2</source>
        <translation>&lt;b&gt;无法刷新概览&lt;/b&gt; (%1)：%2</translation>
    </message>
    <message>
        <source>Reconnect (Ctrl+R) opens the tunnel again.</source>
        <translation>重新连接 (Ctrl+R) 会再次打开隧道。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Not connected: the SSH tunnel closed.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;未连接：SSH 隧道已关闭。&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>The values below are from %1. %2</source>
        <translation>以下数值来自 %1。%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Not connected&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;未连接&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <source>Reconnect (Ctrl+R) tries again now.</source>
        <translation>重新连接 (Ctrl+R) 会立即重试。</translation>
    </message>
    <message>
        <source>No answer from the server: %1</source>
        <translation>服务器没有应答：%1</translation>
    </message>
</context>
<context>
    <name>ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Alt plus the underlined letter of a tab or menu also opens it.</source>
        <translation>按 Alt 加页签或菜单中带下划线的字母也可以打开它。</translation>
    </message>
</context>
<context>
    <name>ui::SkuBalanceModel</name>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>Receipts</source>
        <translation>回执</translation>
    </message>
    <message>
        <source>Receipted units</source>
        <translation>回执件数</translation>
    </message>
    <message>
        <source>Committed orders</source>
        <translation>已提交订单</translation>
    </message>
    <message>
        <source>Committed units</source>
        <translation>已提交件数</translation>
    </message>
    <message>
        <source>Receipts against ledger</source>
        <translation>回执与订单账对比</translation>
    </message>
</context>
<context>
    <name>ui::SkuBrowserView</name>
    <message>
        <source>Filter SKUs:</source>
        <translation>筛选 SKU：</translation>
    </message>
    <message>
        <source>part of a SKU, or a glob like sku-10*</source>
        <translation>SKU 的一部分，或通配模式如 sku-10*</translation>
    </message>
    <message>
        <source>Only SKUs with anomalies</source>
        <translation>仅显示有异常的 SKU</translation>
    </message>
    <message>
        <source>Select a SKU to see its receipts.</source>
        <translation>选中一个 SKU 以查看其回执。</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>复制键</translation>
    </message>
    <message>
        <source>Copy value</source>
        <translation>复制值</translation>
    </message>
    <message>
        <source>Set TTL…</source>
        <translation>设置 TTL…</translation>
    </message>
    <message>
        <source>Remove TTL…</source>
        <translation>移除 TTL…</translation>
    </message>
    <message>
        <source>Delete receipt…</source>
        <translation>删除回执…</translation>
    </message>
    <message>
        <source>Set stock…</source>
        <translation>设置库存…</translation>
    </message>
    <message>
        <source>Copied key %1</source>
        <translation>已复制键 %1</translation>
    </message>
    <message>
        <source>Copied value %1</source>
        <translation>已复制值 %1</translation>
    </message>
    <message>
        <source>Watch stock (Charts tab)</source>
        <translation>监视库存（“图表”页）</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>显示 %1</translation>
    </message>
    <message>
        <source>%1; in the filter, %2</source>
        <translation>%1；筛选条件中%2</translation>
    </message>
    <message>
        <source>Receipts of SKU %1 (stock key %2): %3</source>
        <translation>SKU %1 的回执（库存键 %2）：%3</translation>
    </message>
    <message>
        <source>; %1 within %2: a retry after that deducts again</source>
        <translation>；%2 内%1：之后重试会再次扣减</translation>
    </message>
    <message>
        <source>1 expires</source>
        <translation>1 条过期</translation>
    </message>
    <message>
        <source>%1 expire</source>
        <translation>%1 条过期</translation>
    </message>
    <message>
        <source>Replace this SKU&apos;s stock value (e.g. a bad one such as 12.5 or -3); the exact command is shown first</source>
        <translation>替换此 SKU 的库存值（例如 12.5 或 -3 这样的错误值）；会先显示确切的命令</translation>
    </message>
    <message>
        <source>Select a SKU whose stock key exists</source>
        <translation>选择一个库存键存在的 SKU</translation>
    </message>
    <message>
        <source>This key has no TTL: there is nothing to remove.</source>
        <translation>此键没有 TTL：无需移除。</translation>
    </message>
    <message>
        <source>receipt</source>
        <translation>回执</translation>
    </message>
    <message>
        <source>stock key</source>
        <translation>库存键</translation>
    </message>
    <message>
        <source>Copy receipt key</source>
        <translation>复制回执键</translation>
    </message>
    <message>
        <source>Copy stock key</source>
        <translation>复制库存键</translation>
    </message>
    <message>
        <source>Set TTL on %1…</source>
        <translation>为%1设置 TTL…</translation>
    </message>
    <message>
        <source>Remove TTL from %1…</source>
        <translation>移除%1的 TTL…</translation>
    </message>
</context>
<context>
    <name>ui::SlowLogPage</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Commands slower than the server&apos;s slowlog-log-slower-than, every node, slowest first. ◆ marks FCALL/EVALSHA.</source>
        <translation>比服务器 slowlog-log-slower-than 更慢的命令，覆盖每个节点，最慢的在前。◆ 标记 FCALL/EVALSHA。</translation>
    </message>
    <message>
        <source>The slow log is empty: no command took longer than the server&apos;s slowlog-log-slower-than (10 ms unless configured).</source>
        <translation>慢日志为空：没有命令超过服务器的 slowlog-log-slower-than（未配置时为 10 毫秒）。</translation>
    </message>
    <message>
        <source>%1 entries, %2 of them FCALL/EVALSHA. Read at %3.</source>
        <translation>%1 条记录，其中 %2 条是 FCALL/EVALSHA。读取于 %3。</translation>
    </message>
    <message>
        <source>Not read: %1</source>
        <translation>未读取：%1</translation>
    </message>
</context>
<context>
    <name>ui::SshForm</name>
    <message>
        <source>When the server is only reachable from a bastion host, the console opens an SSH tunnel with this machine&apos;s OpenSSH client and every connection goes through it. The host on the Connection tab is then as the bastion sees it, and the server is production unless you label it.</source>
        <translation>当服务器只能从堡垒机访问时，控制台会用本机的 OpenSSH 客户端打开 SSH 隧道，所有连接都经过它。此时“连接”页上的主机是堡垒机看到的主机，且除非你另行标注，该服务器按生产环境处理。</translation>
    </message>
    <message>
        <source>Bastion:</source>
        <translation>堡垒机：</translation>
    </message>
    <message>
        <source>user@bastion.example.com[:22]; empty: connect directly</source>
        <translation>user@bastion.example.com[:22]；留空：直接连接</translation>
    </message>
    <message>
        <source>Jump host:</source>
        <translation>跳板机：</translation>
    </message>
    <message>
        <source>optional: user@jump[:port]</source>
        <translation>可选：user@jump[:port]</translation>
    </message>
    <message>
        <source>Identity file:</source>
        <translation>身份文件：</translation>
    </message>
    <message>
        <source>Use ~/.ssh/config</source>
        <translation>使用 ~/.ssh/config</translation>
    </message>
    <message>
        <source>Reads your ssh configuration too, so a Host alias works as the bastion; host keys are still checked strictly against the console&apos;s own known_hosts.</source>
        <translation>也读取你的 ssh 配置，因此 Host 别名可以作为堡垒机；主机密钥仍严格按控制台自己的 known_hosts 检查。</translation>
    </message>
    <message>
        <source>optional: the key file; empty: the SSH agent</source>
        <translation>可选：密钥文件；留空：使用 SSH agent</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Identity file</source>
        <translation>身份文件</translation>
    </message>
    <message>
        <source>bastion</source>
        <translation>堡垒机</translation>
    </message>
    <message>
        <source>No bastion: the console connects to the server directly.</source>
        <translation>无堡垒机：控制台直接连接服务器。</translation>
    </message>
    <message>
        <source>A Host alias of ~/.ssh/config works here.</source>
        <translation>这里可以使用 ~/.ssh/config 中的 Host 别名。</translation>
    </message>
    <message>
        <source>Left out, the port is 22 and the user your login name.</source>
        <translation>省略时端口为 22，用户为你的登录名。</translation>
    </message>
    <message>
        <source>jump host</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <source>A jump host needs a bastion.</source>
        <translation>跳板机需要配合堡垒机使用。</translation>
    </message>
    <message>
        <source>Reached first, and checked as strictly as the bastion.</source>
        <translation>最先到达，并与堡垒机一样被严格检查。</translation>
    </message>
    <message>
        <source>Not a readable file.</source>
        <translation>不是可读取的文件。</translation>
    </message>
    <message>
        <source>Its passphrase, if any, is asked when connecting and kept in memory only.</source>
        <translation>如果有口令，会在连接时询问，且只保存在内存中。</translation>
    </message>
</context>
<context>
    <name>ui::StockChartPage</name>
    <message>
        <source>Stock of watched SKUs</source>
        <translation>监视的 SKU 的库存</translation>
    </message>
    <message>
        <source>stock (units)</source>
        <translation>库存（单位）</translation>
    </message>
    <message>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <source>Watched SKUs</source>
        <translation>监视的 SKU</translation>
    </message>
    <message>
        <source>units</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Stock key %1</source>
        <translation>库存键 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>No SKU watched yet — on the Keys tab, right-click a SKU and choose Watch stock</source>
        <translation>尚未监视任何 SKU —— 在“键”页右键单击一个 SKU，选择“监视库存”</translation>
    </message>
    <message>
        <source>No samples yet — reading every %1 s</source>
        <translation>尚无采样 —— 每 %1 秒读取一次</translation>
    </message>
</context>
<context>
    <name>ui::ThreadHopSender</name>
    <message>
        <source>the run was stopped</source>
        <translation>运行已停止</translation>
    </message>
</context>
<context>
    <name>ui::TimeChartPanel</name>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
</context>
<context>
    <name>ui::TlsForm</name>
    <message>
        <source>Connect with TLS (rediss://)</source>
        <translation>使用 TLS 连接 (rediss://)</translation>
    </message>
    <message>
        <source>CA certificate:</source>
        <translation>CA 证书：</translation>
    </message>
    <message>
        <source>system trust store</source>
        <translation>系统信任库</translation>
    </message>
    <message>
        <source>Client certificate:</source>
        <translation>客户端证书：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Client key:</source>
        <translation>客户端密钥：</translation>
    </message>
    <message>
        <source>the host name</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>Server name:</source>
        <translation>服务器名称：</translation>
    </message>
    <message>
        <source>Verify the server certificate</source>
        <translation>验证服务器证书</translation>
    </message>
    <message>
        <source>Without verification anyone on the path can pose as the server and read the password.</source>
        <translation>不验证时，路径上的任何人都可以冒充服务器并读取密码。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM 文件 (*.pem *.crt *.key);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ui::TunnelOpener</name>
    <message>
        <source>The SSH settings cannot be used: %1. Fix them on the SSH tab.</source>
        <translation>SSH 设置无法使用：%1。请在“SSH”页修正。</translation>
    </message>
    <message>
        <source>%1 through the jump host %2</source>
        <translation>%1，经跳板机 %2</translation>
    </message>
    <message>
        <source>Opening the SSH tunnel via %1…</source>
        <translation>正在打开经 %1 的 SSH 隧道…</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH 隧道</translation>
    </message>
    <message>
        <source>The host key was not trusted. Get its fingerprint from the host&apos;s administrator, then connect again.</source>
        <translation>主机密钥未被信任。请从主机管理员处获取其指纹，然后重新连接。</translation>
    </message>
    <message>
        <source>The host key has changed, and a production profile does not replace a trusted key. Once the host&apos;s administrator confirms the new key, remove the old lines from the console&apos;s known_hosts and connect again.</source>
        <translation>主机密钥已变化，而生产环境配置不会替换已信任的密钥。主机管理员确认新密钥后，请从控制台的 known_hosts 中删除旧行，然后重新连接。</translation>
    </message>
    <message>
        <source>Host key trusted. Opening the SSH tunnel via %1…</source>
        <translation>主机密钥已信任。正在打开经 %1 的 SSH 隧道…</translation>
    </message>
    <message>
        <source>No passphrase was given for %1: nothing was connected.</source>
        <translation>没有为 %1 提供口令：未建立任何连接。</translation>
    </message>
    <message>
        <source>Opening the SSH tunnel via %1 with the key&apos;s passphrase…</source>
        <translation>正在用密钥口令打开经 %1 的 SSH 隧道…</translation>
    </message>
    <message>
        <source>SSH tunnel not opened</source>
        <translation>SSH 隧道未打开</translation>
    </message>
    <message>
        <source>The SSH tunnel via %1 could not be opened; nothing was connected.</source>
        <translation>经 %1 的 SSH 隧道无法打开；未建立任何连接。</translation>
    </message>
</context>
<context>
    <name>ui::UnlockDialog</name>
    <message>
        <source>Allow writes on production</source>
        <translation>允许在生产环境写入</translation>
    </message>
    <message>
        <source>This session on production profile &lt;b&gt;%1&lt;/b&gt; is read-only.&lt;br&gt;Writes change real stock: deductions, receipts, loaded libraries. To allow them &lt;b&gt;for this session only&lt;/b&gt;, type the profile name:</source>
        <translation>生产环境配置 &lt;b&gt;%1&lt;/b&gt; 上的此会话是只读的。&lt;br&gt;写入会改变真实库存：扣减、回执、已加载的函数库。要&lt;b&gt;仅为本会话&lt;/b&gt;允许写入，请输入配置名称：</translation>
    </message>
    <message>
        <source>profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Unlock writes</source>
        <translation>解锁写入</translation>
    </message>
    <message>
        <source>Does not match yet (case and spaces count).</source>
        <translation>尚不一致（大小写和空格都要一致）。</translation>
    </message>
</context>
</TS>
