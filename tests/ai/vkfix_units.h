/* tests/ai/vkfix_units.h — pieces of the fixture scenarios' `units:` lists (see
 * viktoria_fixture.h): the lines that open one unit and the figure lines several units share,
 * so that the tests' scenario texts do not spell them out each time.
 */
#ifndef OPFOR_TESTS_VKFIX_UNITS_H
#define OPFOR_TESTS_VKFIX_UNITS_H

/* A unit's name, side, type and position (string literals, position as "[x, y]"); its figure
 * lines follow it in the text. */
#define VKFIX_UNIT(name, side, type, position)                                                     \
    "  - name: " name "\n"                                                                         \
    "    side: " side "\n"                                                                         \
    "    type: " type "\n"                                                                         \
    "    position: " position "\n"                                                                 \
    "    figures:\n"

/* n riflemen with bayonets. */
#define VKFIX_RIFLES(n) "      - {count: " #n ", weapons: [rifle, bayonet]}\n"

/* A crew-served weapon (mg, field_gun) and its three crew. */
#define VKFIX_TEAM(weapon)                                                                         \
    "      - {count: 1, equipment: true, weapons: " weapon "}\n"                                   \
    "      - {count: 3, weapons: pistol, skills: crew}\n"

#endif
