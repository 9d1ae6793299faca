// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerAlias.h"

#include <algorithm>
#include <cstring>
#include <lua.hpp>
#include <memory>

// Lua 5.1 has no API to walk a compiled function's instructions, but lua_dump writes them in
// a documented layout (ldump.c): this reads it back just far enough to see which globals each
// instruction names and on which line.

namespace functions {

namespace {

constexpr int OpGetGlobal = 5; // lopcodes.h, Lua 5.1
constexpr int OpSetGlobal = 7;
constexpr int TypeNil = 0, TypeBoolean = 1, TypeNumber = 3, TypeString = 4;

class DumpReader
{
public:
    explicit DumpReader(const QByteArray &bytes)
        : m_bytes(bytes)
    {}

    bool header()
    {
        // ESC "Lua", version 0x51, format, endianness, then the sizes the rest is written in.
        if (!m_bytes.startsWith("\x1bLua\x51") || m_bytes.size() < 12)
            return false;
        m_intSize = m_bytes[7];
        m_sizeSize = m_bytes[8];
        m_numberSize = m_bytes[10];
        m_pos = 12;
        return m_bytes[6] == 1 && m_bytes[9] == 4; // little-endian, 32-bit instructions
    }

    // One function and, recursively, those it defines. `topLevel`: the chunk itself.
    bool function(bool topLevel, ServerAliasUse &out)
    {
        skipString(); // source
        skip(2 * m_intSize + 4);
        QList<quint32> code(readInt());
        for (quint32 &i : code)
            i = quint32(readUnsigned(4));
        QList<QByteArray> constants(readInt());
        for (QByteArray &k : constants) {
            switch (byte()) {
            case TypeNil:
                break;
            case TypeBoolean:
                skip(1);
                break;
            case TypeNumber:
                skip(m_numberSize);
                break;
            case TypeString:
                k = readString();
                break;
            default:
                return false;
            }
        }
        for (qint64 n = readInt(); n > 0 && m_ok; --n)
            if (!function(false, out))
                return false;
        QList<int> lines(readInt());
        for (int &l : lines)
            l = int(readInt());
        for (qint64 n = readInt(); n > 0 && m_ok; --n) { // locals: name, start pc, end pc
            skipString();
            skip(2 * m_intSize);
        }
        for (qint64 n = readInt(); n > 0 && m_ok; --n) // upvalue names
            skipString();
        if (!m_ok)
            return false;
        QList<int> &hits = topLevel ? out.topLevelLines : out.functionLines;
        for (qsizetype pc = 0; pc < code.size(); ++pc) {
            const int op = int(code[pc] & 0x3f);
            const qsizetype k = qsizetype(code[pc] >> 14); // Bx
            if ((op == OpGetGlobal || op == OpSetGlobal) && constants.value(k) == "server"
                && !hits.contains(lines.value(pc)))
                hits << lines.value(pc);
        }
        return true;
    }

private:
    quint64 readUnsigned(int size)
    {
        if (m_pos + size > m_bytes.size() || size > 8) {
            m_ok = false;
            return 0;
        }
        quint64 v = 0;
        for (int i = size - 1; i >= 0; --i)
            v = (v << 8) | quint8(m_bytes[m_pos + i]);
        m_pos += size;
        return v;
    }
    // Counts are ints; one past what the rest of the dump could hold is corrupt.
    qint64 readInt()
    {
        const qint64 v = qint64(readUnsigned(m_intSize));
        if (v < 0 || v > m_bytes.size())
            m_ok = false;
        return m_ok ? v : 0;
    }
    int byte() { return int(readUnsigned(1)); }
    void skip(qint64 n)
    {
        m_pos += n;
        m_ok = m_ok && m_pos <= m_bytes.size();
    }
    QByteArray readString() // size_t length including the final NUL, 0 for none
    {
        const qint64 size = qint64(readUnsigned(m_sizeSize));
        if (size <= 0 || m_pos + size > m_bytes.size()) {
            m_ok = m_ok && size == 0;
            return {};
        }
        const QByteArray s = m_bytes.mid(m_pos, size - 1);
        m_pos += size;
        return s;
    }
    void skipString() { readString(); }

    const QByteArray &m_bytes;
    qsizetype m_pos = 0;
    int m_intSize = 4, m_sizeSize = 8, m_numberSize = 8;
    bool m_ok = true;
};

int appendTo(lua_State *, const void *p, size_t size, void *out)
{
    static_cast<QByteArray *>(out)->append(static_cast<const char *>(p), qsizetype(size));
    return 0;
}

struct StateCloser
{
    void operator()(lua_State *L) const { lua_close(L); }
};

} // namespace

ServerAliasUse findServerAlias(const QByteArray &code)
{
    // Compiled from the shebang's newline on, as Redis does, so that lines are file lines.
    const qsizetype newline = code.indexOf('\n');
    if (newline < 0)
        return {};
    const QByteArray body = code.mid(newline);
    std::unique_ptr<lua_State, StateCloser> state(luaL_newstate());
    lua_State *L = state.get();
    QByteArray dump;
    if (!L || luaL_loadbuffer(L, body.constData(), size_t(body.size()), "@user_function") != 0
        || lua_dump(L, appendTo, &dump) != 0)
        return {};
    ServerAliasUse out;
    DumpReader reader(dump);
    if (!reader.header() || !reader.function(true, out))
        return {};
    std::sort(out.topLevelLines.begin(), out.topLevelLines.end());
    std::sort(out.functionLines.begin(), out.functionLines.end());
    return out;
}

} // namespace functions
