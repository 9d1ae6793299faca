# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DUI_DIR=<ui/> -DFEATURES="browse;charts;..." -P check_ui_layering.cmake
# Fails when a feature folder of ui/ includes a header of another feature folder or a top-level
# widget (only ui/common and app modules are below it), when ui/common includes a feature folder
# or a top-level widget, when a ui/ header is named by a path that could be app's ("browse/X.h"
# for ui/browse/X.h: write "ui/browse/X.h"), or when a source file of ui/ is not listed in its
# CMakeLists.txt (it would silently not be built). That no module of app/ includes ui/ is
# architecture_layering's check.
cmake_policy(VERSION 3.16)
include(${CMAKE_CURRENT_LIST_DIR}/unlisted_sources.cmake)
set(problems "")

# ui_header(<include line> <folder of the including file> <out>): the ui/ header an include
# line names, relative to ui/ ("browse/BrowserPanel.h", "MainWindow.h"), or "" for anything else.
function(ui_header line folder out)
    set(header "")
    if(line MATCHES "^#include \"ui/([^\"]+)\"")
        set(header "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^#include \"([a-z]+/[^\"]+)\"")
        # "deduct/ResultCard.h" through the ui/ include root, or an app header
        if(EXISTS "${UI_DIR}/${CMAKE_MATCH_1}")
            set(header "${CMAKE_MATCH_1}")
        endif()
    elseif(line MATCHES "^#include \"([^\"/]+)\"")
        # A bare name is the including file's own folder, or ui/ as an include root would take it.
        if(EXISTS "${UI_DIR}/${folder}/${CMAKE_MATCH_1}")
            set(header "${folder}/${CMAKE_MATCH_1}")
        elseif(EXISTS "${UI_DIR}/${CMAKE_MATCH_1}")
            set(header "${CMAKE_MATCH_1}")
        endif()
    endif()
    set(${out} "${header}" PARENT_SCOPE)
endfunction()

unlisted_sources("${UI_DIR}" "ui" problems)
file(GLOB folders LIST_DIRECTORIES true "${UI_DIR}/*")
foreach(dir IN LISTS folders)
    get_filename_component(folder "${dir}" NAME)
    if(IS_DIRECTORY "${dir}" AND NOT folder STREQUAL "common" AND NOT folder IN_LIST FEATURES)
        string(APPEND problems "\n  ui/${folder}/: neither ui/common nor in UI_FEATURES (ui/CMakeLists.txt)")
    endif()
endforeach()

foreach(folder IN ITEMS common ${FEATURES})
    unlisted_sources("${UI_DIR}/${folder}" "ui/${folder}" problems)
    file(GLOB sources "${UI_DIR}/${folder}/*.h" "${UI_DIR}/${folder}/*.cpp")
    foreach(source IN LISTS sources)
        file(RELATIVE_PATH name "${UI_DIR}" "${source}")
        file(STRINGS "${source}" includes REGEX "^#include")
        foreach(line IN LISTS includes)
            ui_header("${line}" ${folder} header)
            if(header STREQUAL "" OR header MATCHES "^(common|${folder})/")
                continue()
            endif()
            if(header MATCHES "/")
                string(APPEND problems "\n  ui/${name}: ${line} (another feature folder)")
            else()
                string(APPEND problems "\n  ui/${name}: ${line} (a top-level widget, above ui/${folder})")
            endif()
        endforeach()
    endforeach()
endforeach()

# Every include of a ui/ header says so: "X.h" for the including file's own folder, otherwise
# "ui/browse/X.h". "browse/X.h" means app/browse/ only; ui/ is not an include root.
file(GLOB_RECURSE sources "${UI_DIR}/*.h" "${UI_DIR}/*.cpp")
foreach(source IN LISTS sources)
    file(RELATIVE_PATH name "${UI_DIR}" "${source}")
    get_filename_component(dir "${source}" DIRECTORY)
    file(STRINGS "${source}" includes REGEX "^#include \"")
    foreach(line IN LISTS includes)
        string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" path "${line}")
        if(path MATCHES "^ui/")
            continue()
        endif()
        if(path MATCHES "/" OR NOT EXISTS "${dir}/${path}")
            if(EXISTS "${UI_DIR}/${path}")
                string(APPEND problems "\n  ui/${name}: ${line} (a ui/ header by an app-style path: write \"ui/${path}\")")
            endif()
        endif()
    endforeach()
endforeach()

if(problems)
    message(FATAL_ERROR "ui/ layering broken (ui/CMakeLists.txt says which way):${problems}")
endif()
message(STATUS "ui/ layering holds: common under ${FEATURES}")
