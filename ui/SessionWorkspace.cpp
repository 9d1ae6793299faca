// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionWorkspace.h"

namespace ui {

SessionWorkspace::SessionWorkspace(redis::CommandSender &reads, inventory::KeySchema schema,
                                   QObject *parent)
    : QObject(parent)
    , m_scan(reads, schema)
{}

} // namespace ui
