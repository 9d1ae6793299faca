# SPDX-License-Identifier: GPL-3.0-or-later
# unlisted_sources(<folder> <name shown> <out>): appends to <out> a line for each .h and .cpp of
# <folder> that its CMakeLists.txt does not list (a file that is not listed is not built).
function(unlisted_sources folder shown out)
    file(GLOB sources "${folder}/*.h" "${folder}/*.cpp")
    file(READ "${folder}/CMakeLists.txt" listed)
    set(lines "${${out}}")
    foreach(source IN LISTS sources)
        get_filename_component(base "${source}" NAME)
        string(REGEX MATCH "[ \n(]${base}[\n )]" found "${listed}")
        if(NOT found)
            string(APPEND lines "\n  ${shown}/${base}: not listed in ${shown}/CMakeLists.txt")
        endif()
    endforeach()
    set(${out} "${lines}" PARENT_SCOPE)
endfunction()
