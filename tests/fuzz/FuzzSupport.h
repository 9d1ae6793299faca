// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the fuzz targets: quiet Qt logging (the modules log every refusal, which would
// drown libFuzzer's own output and slow every run) and a crash that names the broken rule.

#include <QString>
#include <QtGlobal>

#include <cstdio>
#include <cstdlib>

namespace fuzz {

inline void quietQt()
{
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &msg) {
        if (type == QtFatalMsg) {
            std::fprintf(stderr, "qFatal: %s\n", qPrintable(msg));
            std::abort();
        }
    });
}

// A property the target checks failed: abort so that libFuzzer saves the input.
[[noreturn]] inline void broken(const char *rule)
{
    std::fprintf(stderr, "fuzz property broken: %s\n", rule);
    std::abort();
}

} // namespace fuzz

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz::broken(#cond);                                                                   \
    } while (0)
