# rulesets/viktoria/ruleset.cmake — registers Viktoria! with rulesets/CMakeLists.txt: its
# sources, the data compiled in (the model of chances and the built-in scenarios, so the
# binaries need no file at run time; a game master may still load edited copies), its public
# include folder and its descriptor. Read with include() from rulesets/CMakeLists.txt, which
# sets RULESET_DIR to this folder.
set(RULESET_NAME viktoria)
set(RULESET_SYMBOL opfor_viktoria_ruleset)
set(RULESET_TEST_ONLY OFF)
# Its short prefix and the name of its own mode of play, which the layer check
# (tests/arch/check_ruleset_names.sh) also looks for outside this folder.
set(OPFOR_RULESET_PREFIX vk_ patrol)
file(GLOB RULESET_SOURCES CONFIGURE_DEPENDS ${RULESET_DIR}/*.c)
set(RULESET_INCLUDE ${RULESET_DIR}/include)
set(vk_model ${RULESET_DIR}/model.yaml)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${vk_model})
if(EXISTS ${vk_model})
  opfor_embed(RULESET_SOURCES opfor_viktoria_model_yaml ${vk_model})
endif()
file(GLOB vk_scenarios CONFIGURE_DEPENDS ${RULESET_DIR}/scenarios/*.yaml)
foreach(f ${vk_scenarios})
  get_filename_component(stem ${f} NAME_WE)
  string(MAKE_C_IDENTIFIER ${stem} cid)
  opfor_embed(RULESET_SOURCES opfor_viktoria_scenario_${cid} ${f})
endforeach()
# Its own `opfor` commands (cli/, compiled into the opfor executable with tools/opfor's
# helpers): name, C function, summary. `arena`, `selfplay`, `bench calc` and `bench engine`
# are its own versions of the generic commands, run by them for this ruleset.
file(GLOB RULESET_CLI_SOURCES CONFIGURE_DEPENDS ${RULESET_DIR}/cli/*.c)
set(RULESET_COMMANDS
    arena opfor_vk_cmd_arena "seeded matches between AI policies, with win rates and intervals"
    demo opfor_vk_cmd_demo "a short tour of the calculator"
    patrol opfor_vk_cmd_patrol
    "Patrol Mode: initiative, spotting, placement, score (solo/coop)"
    scores opfor_vk_cmd_scores "the Patrol Mode high-score table"
    selfplay opfor_vk_cmd_selfplay
    "whole games between the engine's built-in policies (random, greedy, random_kind)"
    "bench calc" opfor_vk_bench_calc
    "Viktoria! calculator: answers per second over a fixed mix of 16 queries"
    "bench engine" opfor_vk_bench_engine
    "Viktoria! engine: activations and games per second")
# Its table game in the daemon (daemon/, compiled into the io library): the game path of
# opford's Viktoria! games (Patrol Mode presses with the director, the table's reports, the AI's
# orders with command tests, scores), behind io's table game operations (io/game_ops.h).
file(GLOB RULESET_DAEMON_SOURCES CONFIGURE_DEPENDS ${RULESET_DIR}/daemon/*.c)
set(RULESET_DAEMON_GAME opfor_vk_table_game)
