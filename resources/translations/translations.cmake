# SPDX-License-Identifier: GPL-3.0-or-later
# The console's translations (Qt Linguist, Debian qt6-l10n-tools). Included by ui/common,
# whose UiLanguage loads them: lrelease turns each .ts here into a .qm at build time, embedded
# in ui_common as :/i18n/inventory_<locale>.qm, so the same binary finds it in the build tree,
# in the package and in the tests. Plain lupdate/lrelease commands rather than
# Qt6::LinguistTools: Debian ships that CMake package in qt6-tools-dev, which brings Designer,
# Assistant and libclang for two programs.
#
# After changing user-visible strings: scripts/translations (or the inventory_lupdate target)
# adds the new ones to the .ts as unfinished and drops the vanished ones; translate them, and
# tst_translations passes again.
# Qt 6's own, not Qt 5's lupdate that may be on PATH (Debian: /usr/lib/qt6/bin).
find_program(LUPDATE_PROGRAM lupdate PATHS ${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}
    NO_DEFAULT_PATH REQUIRED)
find_program(LRELEASE_PROGRAM lrelease PATHS ${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}
    NO_DEFAULT_PATH REQUIRED)

set(INVENTORY_TRANSLATIONS_DIR ${PROJECT_SOURCE_DIR}/resources/translations)
set(INVENTORY_TS_FILES ${INVENTORY_TRANSLATIONS_DIR}/inventory_zh_CN.ts)
set(INVENTORY_QM_FILES)
foreach(ts IN LISTS INVENTORY_TS_FILES)
    get_filename_component(base ${ts} NAME_WE)
    set(qm ${CMAKE_CURRENT_BINARY_DIR}/i18n/${base}.qm)
    add_custom_command(OUTPUT ${qm}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/i18n
        COMMAND ${LRELEASE_PROGRAM} -silent -nounfinished ${ts} -qm ${qm}
        DEPENDS ${ts} COMMENT "Translation ${base}.qm" VERBATIM)
    set_source_files_properties(${qm} PROPERTIES QT_RESOURCE_ALIAS ${base}.qm GENERATED TRUE)
    list(APPEND INVENTORY_QM_FILES ${qm})
endforeach()
qt_add_resources(ui_common inventory_translations PREFIX /i18n FILES ${INVENTORY_QM_FILES})

# The lupdate arguments live in scripts/translations, which tst_translations runs too.
add_custom_target(inventory_lupdate
    COMMAND ${CMAKE_COMMAND} -E env LUPDATE=${LUPDATE_PROGRAM}
        ${PROJECT_SOURCE_DIR}/scripts/translations ${INVENTORY_TS_FILES}
    COMMENT "Updating the .ts files from the sources" VERBATIM)
