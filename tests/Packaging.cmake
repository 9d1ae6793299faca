# SPDX-License-Identifier: GPL-3.0-or-later
# What ships beside the binaries is checked like code (label unit, each in its own network
# namespace: the validators get no network, and are told not to try).

# Licence: every tracked source file carries its SPDX line (scripts/spdx adds the missing ones),
# and the script keeps shebangs and a Lua library's "#!lua" and version lines where they are.
add_test(NAME licence_spdx_headers COMMAND ${INVENTORY_RUN_ISOLATED}
    ${PROJECT_SOURCE_DIR}/scripts/spdx --check ${PROJECT_SOURCE_DIR})
add_test(NAME licence_spdx_script COMMAND ${INVENTORY_RUN_ISOLATED}
    ${CMAKE_CURRENT_SOURCE_DIR}/architecture/spdx_script ${PROJECT_SOURCE_DIR}/scripts/spdx)

# The desktop entry and the AppStream metadata as installed (appstream, desktop-file-utils:
# scripts/deps). --strict fails on warnings too; --no-net skips the screenshot URLs' check.
find_program(APPSTREAMCLI_PROGRAM appstreamcli)
find_program(DESKTOP_FILE_VALIDATE_PROGRAM desktop-file-validate)
add_test(NAME package_appstream_valid COMMAND ${INVENTORY_RUN_ISOLATED}
    ${APPSTREAMCLI_PROGRAM} validate --strict --no-net --explain ${INVENTORY_METAINFO_FILE})
add_test(NAME package_desktop_entry_valid COMMAND ${INVENTORY_RUN_ISOLATED}
    ${DESKTOP_FILE_VALIDATE_PROGRAM} ${INVENTORY_DESKTOP_FILE})
# desktop-file-validate exits 0 on hints and warnings: any output at all fails the test.
set_tests_properties(package_desktop_entry_valid PROPERTIES FAIL_REGULAR_EXPRESSION ".")

# bash completion: commands, verbs, options, profiles and labels completed as readline would,
# and every option each command's --help lists offered.
add_test(NAME package_bash_completion COMMAND ${INVENTORY_RUN_ISOLATED}
    ${CMAKE_CURRENT_SOURCE_DIR}/packaging/bash_completion
    ${PROJECT_SOURCE_DIR}/resources/completion/inventory-cli $<TARGET_FILE:inventory-cli>)

set_tests_properties(licence_spdx_headers licence_spdx_script package_appstream_valid
    package_desktop_entry_valid package_bash_completion PROPERTIES LABELS unit)
