#pragma once

#include <QByteArrayView>

namespace browse {

// Redis's MATCH glob (* ? [abc] [^a-z] and \ escapes) over raw bytes, so a SKU filter applied
// on the console side means exactly what the same pattern would mean in SCAN MATCH.
bool globMatch(QByteArrayView pattern, QByteArrayView text);

} // namespace browse
