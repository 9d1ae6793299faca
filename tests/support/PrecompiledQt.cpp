// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled only to produce tests/CMakeLists.txt's precompiled Qt headers, which every test
// then reads instead of parsing Qt's headers again.
