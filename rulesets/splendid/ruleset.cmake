# rulesets/splendid/ruleset.cmake — registers A Splendid Victory! (English Civil War, seed
# 003_88751556cefa4e62) with rulesets/CMakeLists.txt: its sources, its model of chances
# (model.yaml, kept beside the code for a game master to read and change) and its descriptor.
# A playable ruleset, not test-only. Read with include() from rulesets/CMakeLists.txt, which
# sets RULESET_DIR to this folder.
set(RULESET_NAME splendid)
set(RULESET_SYMBOL opfor_splendid_ruleset)
set(RULESET_TEST_ONLY OFF)
file(GLOB RULESET_SOURCES CONFIGURE_DEPENDS ${RULESET_DIR}/*.c)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${RULESET_DIR}/model.yaml)
opfor_embed(RULESET_SOURCES opfor_splendid_model_yaml ${RULESET_DIR}/model.yaml)
# Registered after Viktoria!, which stays the first registered: the default ruleset of the
# daemon, the calculator and the tools (rulesets/CMakeLists.txt, docs/protocol.md).
set(RULESET_ORDER 200)
# The built-in scenarios (scenarios/*.yaml), compiled in as opfor_splendid_scenario_<stem>.
file(GLOB sv_scenarios CONFIGURE_DEPENDS ${RULESET_DIR}/scenarios/*.yaml)
foreach(f ${sv_scenarios})
  get_filename_component(stem ${f} NAME_WE)
  string(MAKE_C_IDENTIFIER ${stem} cid)
  opfor_embed(RULESET_SOURCES opfor_splendid_scenario_${cid} ${f})
endforeach()
# The rules engine's hot files at -O3 whatever the build type (issue 18's speed; no fast-math:
# IEEE results and -ffp-contract=off kept, so the same games on every machine).
set_source_files_properties(${RULESET_DIR}/engine.c ${RULESET_DIR}/engine_geom.c
                            ${RULESET_DIR}/engine_move.c ${RULESET_DIR}/engine_phase.c
                            ${RULESET_DIR}/engine_rules.c PROPERTIES COMPILE_OPTIONS "-O3")
