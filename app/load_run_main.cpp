// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-load-run: the offline inspector's Lua load run, in a process of its own so that
// the console can stop it at any moment (functions/IsolatedLoad.h). Not for people: it reads
// one request on stdin and writes one result on stdout.
#include "functions/IsolatedLoad.h"

int main()
{
    return functions::detail::loadRunHelperMain();
}
