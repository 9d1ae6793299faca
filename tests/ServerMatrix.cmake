# SPDX-License-Identifier: GPL-3.0-or-later
# The server matrix (label `matrix`, issue 29): tests registered a second time per server that
# users run besides Debian's redis-server 7.0.15, each run as `<test>@<server>` with
# INVENTORY_REDIS_SERVER naming that server's binary. scripts/servers builds the servers;
# `scripts/test --matrix` builds them and runs this label; the normal suite leaves it out
# (`-LE matrix`), since it is the 7.0 run of the same tests.
set(INVENTORY_MATRIX_SERVERS redis-7.2.6 redis-7.4.1 valkey-8.0.1 CACHE STRING
    "Servers of the matrix, as scripts/servers names them (NAME-VERSION)")
set(INVENTORY_MATRIX_WIDE_SERVER valkey-8.0.1 CACHE STRING
    "The one matrix server that also runs the transport, deduction and cluster tests")

# On every server: what a server version can change under us — the Lua contracts (Lua and
# the FUNCTION commands), the library load/rollback/status sequence and the inspector's
# agreement with the server's own refusals.
set(matrix_every_server tst_contract_deduct_v1 tst_contract_receipt tst_contract_stock_decrement
    tst_contract_v2 tst_contract_release tst_contract_adjust tst_contract_repair_storm
    tst_functions_load tst_functions_cli tst_functions_refusals
    tst_functions_case_twins tst_functions_server_alias)
# On one server more: the rest is protocol and cluster behaviour that Redis 7.x and Valkey
# share; one other implementation is enough to catch an assumption about 7.0 (the CI budget,
# docs/testing.md, has the cost of each).
set(matrix_wide_server ${matrix_every_server} tst_fixture_servers tst_transport tst_deduct
    tst_cli_deduct tst_cli_ping tst_connection_probe tst_cluster_routing tst_functions_cluster
    tst_functions_replicas tst_main_window_smoke)

foreach(server ${INVENTORY_MATRIX_SERVERS})
    set(tests ${matrix_every_server})
    if(server STREQUAL INVENTORY_MATRIX_WIDE_SERVER)
        set(tests ${matrix_wide_server})
    endif()
    foreach(test ${tests})
        # with-server resolves the binary when the test runs (the build cache may be filled
        # after configuring) and skips (77) a server scripts/servers has not built.
        add_test(NAME ${test}@${server} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/support/with-server
            ${server} ${INVENTORY_RUN_ISOLATED} $<TARGET_FILE:${test}>)
        inventory_test_environment(${test}@${server} environment)
        set_tests_properties(${test}@${server} PROPERTIES TIMEOUT 300 LABELS matrix
            SKIP_RETURN_CODE 77 ENVIRONMENT "${environment}")
    endforeach()
endforeach()
