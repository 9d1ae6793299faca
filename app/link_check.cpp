// SPDX-License-Identifier: GPL-3.0-or-later
// Linked with one module's whole archive and only the modules it declares (app/CMakeLists.txt):
// building it proves the module calls nothing above it.
int main()
{
    return 0;
}
