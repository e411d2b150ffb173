# rulesets/duel/ruleset.cmake — registers the dice duel (a small test ruleset with chance and
# a hidden hand) with rulesets/CMakeLists.txt. Test-only: built with -DOPFOR_TEST_RULESETS=ON.
set(RULESET_NAME duel)
set(RULESET_SYMBOL opfor_duel_ruleset)
set(RULESET_TEST_ONLY ON)
file(GLOB RULESET_SOURCES CONFIGURE_DEPENDS ${RULESET_DIR}/*.c)
set(RULESET_INCLUDE ${RULESET_DIR}/include)
