/* rulesets/viktoria/engine_int.h — private to the Viktoria! rules engine (engine*.c, policy.c).
 *
 * Holds the design of the engine (below), the context layout, the chance tables and the
 * helpers the engine's files share. Nothing here is public API: callers use engine.h.
 */
#ifndef OPFOR_VIKTORIA_ENGINE_INT_H
#define OPFOR_VIKTORIA_ENGINE_INT_H

/* ======================================================================== DESIGN
 *
 * State layout. opfor_vk_state_t (engine.h) is every mutable byte of a game: the random
 * stream, turn and phase, the current unit, weather, off-board registration, the pending
 * charge, melee links (a 32-bit mask per unit), per-unit extras (opfor_vk_unitx_t), a byte
 * of flags per figure (figx), and the shared core unit and figure arrays (core/unit.h). It
 * has no pointers and no implicit padding, is zeroed before it is filled, and is copied
 * with memcpy; its hash is FNV-1a over its bytes. A unit's figures are contiguous; merging
 * two units rotates the figure array so that they become one block (unit indices never
 * change; a merged-away or routed unit keeps its slot with ux.removed = 1). Dead figures
 * keep their slot with OPFOR_FIG_ALIVE cleared.
 *
 * Context. opfor_vk_ctx_t holds a copy of the scenario (its table is the shared, read-only
 * terrain), the model, the options, the chance tables and a spatial index of the terrain
 * (core/terrain_grid.c: per-cell masks of the features near each 2-inch cell; its queries
 * answer exactly as core/terrain.c's). It is never written after opfor_vk_ctx_init, so any
 * number of threads may simulate from one context. The index is consulted only on busy
 * tables (VK_GRID_MOVE_MIN, VK_GRID_LOS_MIN): with a handful of features the bounding-box
 * loops of core/terrain.c are cheaper than walking the cells.
 *
 * Command (VII, XV.B). Whoever commands is read from the state at each test, never cached:
 * a living figure with the general skill, any figure of a general unit, or of a
 * headquarters unit, in play on the table (vk_commander). Generals a mode brings on during
 * the game (Patrol Mode's spawns) give command from the moment they appear.
 *
 * Phases (Viktoria! V.A). START_TURN (chance: clear the turn's flags, weather event) ->
 * INITIATIVE (chance: the sequencer picks the side; competitive mode rolls a D6 a side and
 * re-rolls ties) -> SELECT_UNIT (the side picks a ready unit; mesmerised figures test to
 * break the spell) -> COMMAND (chance, only when the unit is beyond command: the
 * calculator's test_out_of_command) -> ACTION (the unit's action, resolved at once with
 * dice from the state) -> [REACTION when a charge waits for the charged unit's choice] ->
 * [CONTROL when a mesmerist directs captured figures] -> morale checks of every unit that
 * lost a figure killed -> INITIATIVE again, or START_TURN when no unit is ready, or OVER.
 * The sequencer is the one place that decides who activates next (vk_next_side in
 * engine.c): options.initiative (a mode's function, e.g. Patrol Mode) when set, else the
 * built-in competitive or side-by-side rule.
 *
 * Granularity. A unit's activation is one action for all its figures (a group action),
 * each figure rolling its own dice where the rules make the action individual (fire,
 * attacks, tests). Moving fire is ADVANCE with a fire target: the unit moves, then every
 * figure able to fire shoots with the moving modifier. A musician plays (his Stand, or his
 * Advance) whenever its unit stands, loads, rallies or advances, instead of firing when it
 * fires, and in a melee when he made no attack, so its morale and command relay apply; it
 * does not play while its unit runs, crawls or charges (engine.c, musician_plays_with).
 *
 * Action encoding. opfor_vk_action_t (24 bytes) carries kind, unit, target unit, target
 * figure, MG arc, flags, a destination and one waypoint. Some fields are read per kind: a SPLIT's
 * `figure` is how many men go and `dest` the point they are nearest (V.A); a move's `arc`
 * is where a remount or dismount happens (OPFOR_VK_AT_START / _AT_END, VIII); CONTROL's and
 * TO_REAR's flags reuse bits that other kinds use (engine.h). Movement is continuous: any point
 * on the table is a legal destination and the unit moves toward it as far as allowed. The
 * legal list is a bounded sample of useful destinations generated from the situation:
 * toward each enemy unit (stopping short of contact), toward objectives, into the nearest
 * cover, flanking points, back toward the own edge, crawl in place, and detours (a
 * waypoint round a corner) where a straight line is blocked. The order is fixed:
 * kinds in enum order, then units / candidates by index. At most OPFOR_VK_MAX_ACTIONS.
 *
 * Lazy listing. The actions of a decision fall into groups (a kind, with moving fire a group
 * of its own). opfor_vk_legal_groups gives a cheap superset of the groups open to the unit
 * (no distances or sight lines), opfor_vk_legal_group lists one group, computing only what
 * it needs, in the order of the full list. The random_kind policy (a group uniformly, then
 * an action of it uniformly) uses them in opfor_vk_play: a group that turns out empty is
 * dropped and another drawn, which is uniform over the groups that really have actions.
 *
 * Movement (VIII). One 1d3 per group; each figure's allowance is X (from the calculator's
 * move actions, by class, mounted, wounded, limbered) plus the d3. The unit moves as a
 * rigid formation along its legs; the distance is the largest fraction every figure can
 * afford: rough ground costs 2 in per inch on foot and 4 mounted or as transport, roads
 * cancel rough and let transport and limbered guns go double, each linear obstacle crossed
 * takes 1 in off the allowance, impassable terrain (and buildings for riders and guns) stops
 * the move, as does the table edge and any other base (enemy bases keep a small gap unless
 * charging). Stragglers beyond 3 in of the unit then close up (coherency).
 *
 * Chances (the calculator is the only source). engine_tab.c calls opfor_viktoria_calc once
 * for every combination of discrete fields that the scenario can reach (qualities present,
 * mounted only when a figure has a horse, ...) and stores the rendered rolls (kind, score,
 * second score) in flat tables; apply() is then index arithmetic plus dice. Rolls are made
 * as a player would make them (opfor_roll_t semantics: one D6, 6-then-N, 2+-re-roll-a-1,
 * 2D6), so events can show faces. The fire critical (IX) is the calculator's "critical"
 * roll (6 then 6, 1 in 36 whenever a hit is possible): after a one-die hit showing 6, one more
 * die; for a hit rendered "6, then N+" the hit's own second die (vk_roll_hit). Effects (scratch,
 * wound, kill) come from the calculator's effect tables; movement X from its move actions; the
 * weather event from its level and wind tables; deviation from its dice and D8 direction
 * table; the command radius from opfor_viktoria_command_radius.
 *
 * Determinism. No libm transcendental function is used (only +, -, *, /, sqrtf through
 * core/geom.h; the build has -ffp-contract=off). No global mutable state. Every die comes
 * from st->rng in an order fixed by the code: units and figures in index order. Policies
 * draw from their own stream. The same seed and the same action log give the same state
 * hash on x86-64 and arm64 (tests pin one).
 *
 * Speed. Nothing is cached in the state or between calls: every answer is recomputed from the
 * state, so there is no invalidation to get wrong. The work is made cheaper without changing
 * a single bit of any answer: terrain queries skip features and polygon edges that a box test
 * (opfor_seg_box_apart, with a hundredth of an inch of clearance, far above float rounding)
 * shows the segment cannot meet, and test points against a polygon's box before its edges;
 * a move's path queries look only at the features in its swept box (opfor_terrain_path_in);
 * each figure's last successful path test in a move is reused when the formation's final
 * fraction is the one tested; nearest pairs and coherency scan compact copies of the living
 * positions in index order; a listing measures each unit it needs once (compact copies padded
 * to groups of four lanes) and skips the helpers the acting unit's profile (vk_uprof_t) shows
 * must say no; collisions beyond the smallest allowance are left unsolved (the move stops
 * there anyway); a moving set keeps its extremes so edge, terrain and collision passes it
 * clears are skipped; a volley hides the dead and the firer from its lanes and updates its
 * targets in place; the play loops apply listed actions unchecked (opfor_vk_apply_listed).
 * tests/core/test_terrain_fast.c, test_terrain_ref.c and tests/rulesets/test_engine_*_fast.c
 * (list, move, fire, melee) compare these with the original code over thousands of random
 * positions. The time goes, roughly a third each, to listing (nearest pairs to every enemy unit,
 * their sight lines, the move destinations' blockers), to movement (collisions with every base,
 * per-figure terrain paths with a bisection where terrain stops a figure) and to the rest of apply
 * (fire per figure with its sight line and the gap rule, melee, the end of the activation).
 *
 * Simplifications (documented where they are made): the pending charge resolves the nine
 * steps of X inside apply, with the charged unit's reaction as its own decision; a unit
 * fighting an ongoing melee resolves every attack of the melee and all its units count as
 * having acted; a Wavering unit that fails another morale check outside melee stays
 * Wavering; off-board communications, once lost, come back after a turn; the legal list
 * proposes a waypoint only round the first feature that blocks a straight move
 * (impassable ground, or a building for riders and guns), for at most two destinations per
 * move kind (apply honours any waypoint); a crewless gun or wagon is a wreck, not a unit; a
 * side reduced to its generals has lost.
 *
 * Scoring (XIV leaves victory to the scenario; the scenario format has objectives and a turn
 * limit): at the end each side scores the points of the objectives it alone holds, one per
 * enemy unit destroyed or routed, and one per colours captured; a side with no units left
 * loses at once; ties go to the side that killed more.
 *
 * XII options (options.specials): automatons (soft armour), vehicles (hard) and walkers
 * (transport in fortifications: proof against small arms and MGs through the calculator) add
 * armour to cover; machines move at transport speeds; walkers check morale as elite even
 * when only wounded, leave on a failure, and a kill makes them spend their next activation
 * recovering (this turn's if they have not acted yet, ux.hesitate the turn it falls in); a
 * walker serves its own guns (no crew, no loading, no limbering: it walks) and one
 * FIRE_ARTILLERY action fires its three shots of the turn, each resolved as artillery fire
 * with its own on-target roll and deviation, at dest, via (OPFOR_VK_AF_VIA) and the place of
 * `figure`, or all at dest (XII.E). Balloons and dirigibles start aloft; each drifts downwind
 * as its move when it activates, unless tethered (vk_craft_drift); a damaged one sinks a level
 * at once and at the start of each later turn; high winds and gales may damage or wreck craft
 * aloft at the start of the turn (crash roll for passengers); a balloon climbs or descends one
 * level a move (never up once damaged), a dirigible up to two, and a dirigible aloft also
 * steers up to twice transport advance mounted (X + d3) in a straight line, over terrain and
 * figures, kept on the table (XII.D; ADVANCE with OPFOR_VK_AF_CLIMB / _DESCEND, levels in
 * `arc`); craft neither run, crawl nor fire on the move. Their envelope is ux.damage, shot at
 * with FIRE and OPFOR_VK_AF_AT_CRAFT (and tested once by an MG arc over the craft, or a blast
 * on it on the ground) as a Civilian (a dirigible's hardened shell: the scenario's quality)
 * without cover, Wounded once damaged: a wound is damage, a kill or a second damage destroys
 * it (vk_craft_damage); their occupants are running targets in a steady breeze or more. Fire
 * at or from a craft in the air goes one range bracket further per altitude level between the
 * two (opfor_viktoria_bracket_aloft); a burst on the ground does not reach a craft in the air, and
 * bombs from one (an aeroplane's with OPFOR_VK_AF_BOMB) are measured from the point beneath
 * it. Vehicle passengers, trains and aeroplanes (XII.C-D) are engine_vehicle.c's and
 * engine_air.c's, reached through small hooks (engine_machine_int.h; docs/viktoria-model.md
 * section 8). Vehicles' speed classes, turning cost (frontage times the angle) and wheels
 * against tracks are engine_move.c's (vk_move_x, vk_turn_cost, terrain_class). Not modelled:
 * landed balloons moving on the ground, artillery aimed at a craft in the air (shells burst on
 * the ground).
 * ======================================================================== */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "opfor/chance.h"
#include "opfor/geom.h"
#include "opfor/rng.h"
#include "opfor/scenario.h"
#include "opfor/terrain.h"
#include "opfor/terrain_grid.h"
#include "opfor/unit.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/model.h"

/* Internal functions shared by the engine's files carry the opfor__ prefix in the object
 * files (project convention); these aliases keep the code readable. */
#define vk_ev opfor__vk_ev
#define vk_roll opfor__vk_roll
#define vk_roll_hit opfor__vk_roll_hit
#define vk_effect_roll opfor__vk_effect_roll
#define vk_deviate opfor__vk_deviate
#define vk_unit_geo opfor__vk_unit_geo
#define vk_nearest_pair opfor__vk_nearest_pair
#define vk_nearest_fig opfor__vk_nearest_fig
#define vk_los opfor__vk_los
#define vk_unit_sees opfor__vk_unit_sees
#define vk_move_blocker_wide opfor__vk_move_blocker_wide
#define vk_unit_profile opfor__vk_unit_profile
#define vk_unit_active opfor__vk_unit_active
#define vk_harm opfor__vk_harm
#define vk_move_x opfor__vk_move_x
#define vk_move_unit opfor__vk_move_unit
#define vk_move_figure opfor__vk_move_figure
#define vk_flee opfor__vk_flee
#define vk_fly opfor__vk_fly
#define vk_fly_ok opfor__vk_fly_ok
#define vk_cohere opfor__vk_cohere
#define vk_spot_blocked opfor__vk_spot_blocked
#define vk_mount opfor__vk_mount
#define vk_can_mount opfor__vk_can_mount
#define vk_can_dismount opfor__vk_can_dismount
#define vk_firearm_m opfor__vk_firearm_m
#define vk_fire_unit opfor__vk_fire_unit
#define vk_fire_count opfor__vk_fire_count
#define vk_defensive_count opfor__vk_defensive_count
#define vk_shoot opfor__vk_shoot
#define vk_cover opfor__vk_cover
#define vk_lane_blocked opfor__vk_lane_blocked
#define vk_fire_target_ok opfor__vk_fire_target_ok
#define vk_unit_reach_m opfor__vk_unit_reach_m
#define vk_morale_check opfor__vk_morale_check
#define vk_morale_need opfor__vk_morale_need
#define vk_morale_after opfor__vk_morale_after
#define vk_rally opfor__vk_rally
#define vk_command_distance opfor__vk_command_distance
#define vk_needs_command_test opfor__vk_needs_command_test
#define vk_command_test opfor__vk_command_test
#define vk_musician_play opfor__vk_musician_play
#define vk_promote opfor__vk_promote
#define vk_remove_unit opfor__vk_remove_unit
#define vk_split_leaders opfor__vk_split_leaders
#define vk_split opfor__vk_split
#define vk_split_ok opfor__vk_split_ok
#define vk_merge opfor__vk_merge
#define vk_half_strength opfor__vk_half_strength
#define vk_can_charge opfor__vk_can_charge
#define vk_charge_reach opfor__vk_charge_reach
#define vk_charge_target_ok opfor__vk_charge_target_ok
#define vk_charge opfor__vk_charge
#define vk_charge_react opfor__vk_charge_react
#define vk_can_counter opfor__vk_can_counter
#define vk_can_defensive_fire opfor__vk_can_defensive_fire
#define vk_fight opfor__vk_fight
#define vk_melee_attack opfor__vk_melee_attack
#define vk_melee_refresh opfor__vk_melee_refresh
#define vk_mg_figure opfor__vk_mg_figure
#define vk_gun_figure opfor__vk_gun_figure
#define vk_crew opfor__vk_crew
#define vk_can_fire_mg opfor__vk_can_fire_mg
#define vk_can_fire_gun opfor__vk_can_fire_gun
#define vk_gun_shots opfor__vk_gun_shots
#define vk_fire_mg opfor__vk_fire_mg
#define vk_mg_count opfor__vk_mg_count
#define vk_mg_count_units opfor__vk_mg_count_units
#define vk_fire_gun opfor__vk_fire_gun
#define vk_can_call_support opfor__vk_can_call_support
#define vk_call_support opfor__vk_call_support
#define vk_support_team_ok opfor__vk_support_team_ok
#define vk_bombers opfor__vk_bombers
#define vk_throw_bombs opfor__vk_throw_bombs
#define vk_blast opfor__vk_blast
#define vk_wounded_count opfor__vk_wounded_count
#define vk_to_rear opfor__vk_to_rear
#define vk_rear_sendable opfor__vk_rear_sendable
#define vk_rear_bound opfor__vk_rear_bound
#define vk_rear_return opfor__vk_rear_return
#define vk_can_heal opfor__vk_can_heal
#define vk_can_heal_rear opfor__vk_can_heal_rear
#define vk_heal opfor__vk_heal
#define vk_mesmerists opfor__vk_mesmerists
#define vk_mesmerize opfor__vk_mesmerize
#define vk_mesmer_tests opfor__vk_mesmer_tests
#define vk_weather_event opfor__vk_weather_event
#define vk_specials_turn opfor__vk_specials_turn
#define vk_armour opfor__vk_armour
#define vk_craft_damage opfor__vk_craft_damage
#define vk_craft_drift opfor__vk_craft_drift
#define vk_can_fire_craft opfor__vk_can_fire_craft
#define vk_fire_craft opfor__vk_fire_craft
#define vk_fire_craft_count opfor__vk_fire_craft_count
#define vk_firearm_lv opfor__vk_firearm_lv
#define vk_unit_reach_lv opfor__vk_unit_reach_lv
#define vk_tabs_build opfor__vk_tabs_build

/* ---------------------------------------------------------------- constants */

#define VK_COHERENCY 3.0f      /* figures stay within 3 in of another of their unit (VIII) */
#define VK_CONTACT 0.05f       /* bases this close count as touching (X) */
#define VK_ENEMY_GAP 0.25f     /* moving figures keep this gap from enemy bases (VIII) */
#define VK_MERGE_DIST 3.0f     /* merging units within 3 in (V.A) */
#define VK_GENERAL_MORALE 6.0f /* a general within 6 in counts for morale (XI) */
#define VK_NEAR_3 3.0f         /* colours / musician within 3 in (XI) */
#define VK_HEAL_REACH 6.0f     /* medics move up to 6 in to bind wounds (VI) */
#define VK_HEAL_TOUCH 0.1f     /* a medic this close to his patient has reached contact (VI) */
#define VK_BOMB_RANGE 6.0f     /* bombs thrown up to 6 in (VI) */
#define VK_MESMER_RANGE 9.0f   /* mesmerism works up to 9 in (XII.B) */
#define VK_OVERHEAD 6.0f       /* guns fire over troops at 6 in or more (IX) */
#define VK_CMD_MAX_INCH 120    /* command table: distances beyond are clamped */
#define VK_MAX_ENEMY_CAND 6    /* enemy units considered per decision */
#define VK_MAX_WAYPOINTS 2     /* detours proposed per unit and move kind */
#define VK_EPS 0.01f
#define VK_GRID_MOVE_MIN 12 /* features from which move and cover tests use the grid */
#define VK_GRID_LOS_MIN 48  /* features from which sight lines use the grid */

/* ---------------------------------------------------------------- chance tables */

/* A rendered roll: opfor_roll_kind_t, need, need2. */
typedef struct vk_roll {
    uint8_t kind, need, need2, ok; /* ok: 1 when filled from the calculator */
} vk_roll_t;

/* Effect of a failed save or test: faces from which a wound / a kill. */
typedef struct vk_effect {
    uint8_t wound_from, kill_from;
} vk_effect_t;

/* Posture of a target: none, running, prone. */
enum { VK_POST_NONE = 0, VK_POST_RUNNING, VK_POST_PRONE, VK_POST_COUNT };

#define VK_NQ OPFOR_Q_COUNT
#define VK_NC OPFOR_VK_CLASS_COUNT
#define VK_NB OPFOR_VK_BRACKET_COUNT
#define VK_NCOV OPFOR_COVER_COUNT

/* Index helpers for the flat tables (row-major, last index fastest). */
#define VK_FIRE_HIT_N (3 * VK_NQ * VK_NC * VK_NCOV * VK_NB * 64 * VK_POST_COUNT)
#define VK_MELEE_N (OPFOR_VK_MELEE_COUNT * VK_NQ * VK_NQ * VK_NCOV * 32)

typedef struct vk_tabs {
    /* fire (IX): hit by weapon, actor quality, target class, cover, bracket,
       6 booleans (am, ss, aw, moving, tw, tm), posture */
    vk_roll_t fire_hit[VK_FIRE_HIT_N];
    vk_roll_t fire_save[3][VK_NC][VK_NCOV][VK_NB][2][2]; /* w, tc, cov, br, tw, tm */
    vk_roll_t critical;                                  /* the 6-then-6 (IX) */
    /* melee (X): [w][aq][tq][cov][am tm ch aw tw] */
    vk_roll_t melee_hit[VK_MELEE_N];
    vk_roll_t melee_save[VK_MELEE_N];
    vk_effect_t effect[OPFOR_VK_EFFECT_COUNT][2][2];   /* kind, wounded, transport */
    vk_roll_t mg_pass[VK_NC][VK_NCOV][VK_NB][2][2][2]; /* class, cov, br, am, aw, moving */
    vk_roll_t blast_pass[VK_NC][VK_NCOV][2][2][OPFOR_VK_BLAST_COUNT]; /* class cov am aw k */
    vk_roll_t art_on[VK_NB];
    opfor_dice_t art_dev[VK_NB];
    vk_roll_t bomb_on[VK_NQ][VK_NB];
    opfor_dice_t bomb_dev[VK_NB];
    float bomb_radius, shell_radius, heavy_radius;
    vk_roll_t support_call[21][2]; /* registered turns 0..20, guns field/heavy */
    uint8_t support_fail;          /* natural 2D6 at or below: communications lost */
    vk_roll_t support_on;          /* on target at the longest bracket */
    opfor_dice_t support_dev;
    vk_roll_t mesmerise[VK_NQ][VK_NQ][VK_NB];
    vk_roll_t resist[VK_NQ];
    vk_roll_t heal[VK_NQ];
    vk_roll_t morale[VK_NQ][16]; /* general, musician, colours, half as 4 bits */
    vk_roll_t rally[VK_NQ][16];
    vk_roll_t command[VK_NQ][5][VK_CMD_MAX_INCH + 1];   /* leader quality, level-1, inches */
    int8_t move_x[OPFOR_VK_MOVE_COUNT][VK_NC][2][2][2]; /* kind, class, mounted, wnd, limb */
    uint8_t weather_level[5][7];                        /* [level-1][d6 face] -> new level */
    uint8_t weather_wind[8][13];                        /* [wind][2d6 total] -> new wind */
    int nfilled;                                        /* calculator calls made */
} vk_tabs_t;

static inline int vk_fire_idx(int w, int aq, int tc, int cov, int br, int am, int ss, int aw,
                              int mv, int tw, int tm, int post) {
    int i = ((((w * VK_NQ + aq) * VK_NC + tc) * VK_NCOV + cov) * VK_NB + br);
    i = i * 64 + (am << 5 | ss << 4 | aw << 3 | mv << 2 | tw << 1 | tm);
    return i * VK_POST_COUNT + post;
}
static inline int vk_melee_idx(int w, int aq, int tq, int cov, int am, int tm, int ch, int aw,
                               int tw) {
    int i = (((w * VK_NQ + aq) * VK_NQ + tq) * VK_NCOV + cov);
    return i * 32 + (am << 4 | tm << 3 | ch << 2 | aw << 1 | tw);
}

/* ---------------------------------------------------------------- context */

struct opfor_vk_ctx {
    opfor_scenario_t sc;          /* copy; patrol/doc pointers cleared */
    opfor_viktoria_model_t model; /* copy */
    opfor_vk_options_t opt;
    int turn_limit;
    float spawn_edge_y[2]; /* own edge direction: +1 if a side's edge is the bottom */
    opfor_vec_t home[2];   /* unit vector toward each side's own edge */
    uint8_t move_feat[OPFOR_MAX_FEATURES]; /* features affecting movement */
    int nmove_feat;
    uint8_t block_feat[OPFOR_MAX_FEATURES]; /* impassable, or closed to riders (waypoints) */
    int nblock_feat;
    vk_tabs_t *tab;          /* heap: chance tables */
    opfor_tgrid_t grid;      /* spatial index of the terrain (core/terrain_grid.c) */
    int grid_move;           /* 1: move and cover tests use the grid (tables busy enough) */
    int grid_los;            /* 1: sight lines use the grid (very busy tables) */
    uint8_t support_team[2]; /* per side: living signallers a support call needs (IX) */
    int machines; /* 1: the XII machine hooks may matter (specials on, or a scenario unit with
                     machine keys); 0: they are no-ops and engine.c skips them */
};

/* Line of sight and cover on the scenario's table: through the terrain grid on busy tables,
 * else core/terrain.c directly (the same answers either way). */
static inline int vk_terrain_los(const opfor_vk_ctx_t *ctx, opfor_pt_t a, float ra, opfor_pt_t b,
                                 float rb, opfor_los_t *out) {
    return ctx->grid_los ? opfor_tgrid_los_r(&ctx->grid, &ctx->sc.table, a, ra, b, rb, out)
                         : opfor_terrain_los_r(&ctx->sc.table, a, ra, b, rb, out);
}
static inline int vk_terrain_cover(const opfor_vk_ctx_t *ctx, opfor_pt_t from, opfor_pt_t target,
                                   float r) {
    return ctx->grid_move
               ? (int)opfor_tgrid_cover(&ctx->grid, &ctx->sc.table, from, target, r, NULL)
               : (int)opfor_terrain_cover(&ctx->sc.table, from, target, r, NULL);
}

/* Lighter-than-air craft under the XII options (XII.D): 1 balloon, 2 dirigible, else 0. */
enum { VK_CRAFT_NONE = 0, VK_CRAFT_BALLOON, VK_CRAFT_DIRIGIBLE };
#define VK_MAX_ALTITUDE 9 /* highest altitude level a craft climbs to */
static inline int vk_craft(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    if (!ctx->opt.specials)
        return VK_CRAFT_NONE;
    int t = st->units[u].type;
    return t == OPFOR_UT_BALLOON     ? VK_CRAFT_BALLOON
           : t == OPFOR_UT_DIRIGIBLE ? VK_CRAFT_DIRIGIBLE
                                     : VK_CRAFT_NONE;
}

/* Whether unit u fires from a balloon or dirigible in the air: all such fire is moving fire
 * (XII.D: "all fire from a hot-air balloon in the air"; dirigibles fire as balloons do). */
static inline int vk_fire_aloft(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return vk_craft(ctx, st, u) != VK_CRAFT_NONE && st->ux[u].altitude > 0;
}

/* Altitude levels between units u and t (XII.D): each is one more range bracket for fire
 * between them. 0 unless one of them is a flying craft in the air (only the XII code lifts one). */
static inline int vk_levels(const opfor_vk_state_t *st, int u, int t) {
    int d = (int)st->ux[u].altitude - (int)st->ux[t].altitude;
    return d < 0 ? -d : d;
}

/* The class a balloon's or dirigible's envelope is fired on as (XII.D): Civilian, or for a
 * dirigible with a hardened shell the quality the scenario gives it (`shell:`). */
static inline int vk_envelope_class(const opfor_vk_ctx_t *ctx, int u) {
    return u < ctx->sc.nunits && ctx->sc.machine[u].shell ? ctx->sc.machine[u].shell - 1
                                                          : OPFOR_Q_CIVILIAN;
}

/* Whether unit u's occupants are running targets as a balloon's or dirigible's (XII.D: "any
 * targets in a balloon moving at a steady breeze or better"): aloft, not tethered, wind level 3
 * (a steady breeze) or more. */
static inline int vk_craft_running(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return st->ux[u].altitude > 0 && st->level >= 3 && vk_craft(ctx, st, u) != VK_CRAFT_NONE &&
           !(u < ctx->sc.nunits && ctx->sc.machine[u].tethered);
}

/* ---------------------------------------------------------------- events */

void vk_ev(opfor_vk_events_t *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define VK_EV(ev, ...)                                                                             \
    do {                                                                                           \
        if (ev)                                                                                    \
            vk_ev(ev, __VA_ARGS__);                                                                \
    } while (0)

/* ---------------------------------------------------------------- small helpers */

static inline int vk_alive(const opfor_vk_state_t *st, int f) {
    return (st->figures[f].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR)) == OPFOR_FIG_ALIVE;
}
static inline int vk_side_of(const opfor_vk_state_t *st, int u) {
    return st->units[u].side;
}
/* Base radius: opfor_figure_radius, inlined for the hot loops (same values). */
static inline float vk_radius(const opfor_figure_t *f) {
    return (f->flags & OPFOR_FIG_EQUIPMENT) ? OPFOR_RADIUS_EQUIPMENT
           : (f->flags & OPFOR_FIG_MOUNTED) ? OPFOR_RADIUS_MOUNTED
                                            : OPFOR_RADIUS_FOOT;
}
static inline int vk_is_person(const opfor_figure_t *f) {
    return !(f->flags & OPFOR_FIG_EQUIPMENT);
}
static inline int vk_in_melee(const opfor_vk_state_t *st, int u) {
    return st->melee[u] != 0;
}
/* Class of a figure for tests and targeting: its quality, or transport for equipment. */
static inline int vk_class(const opfor_figure_t *f) {
    return (f->flags & OPFOR_FIG_EQUIPMENT) ? OPFOR_VK_TRANSPORT : f->quality;
}
/* vk_class of figure g as a target of fire, MG or blast: a vehicle (under the XII options) is
 * targeted at the quality it fires with, its crew's, which is its model's quality (XII.C:
 * "targeted vehicles will use the same quality rating ... as they do for firing"); walkers
 * and automatons stay transport (XII.A, XII.E). */
static inline int vk_target_class(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int g) {
    const opfor_figure_t *f = &st->figures[g];
    if (ctx->opt.specials && (f->flags & OPFOR_FIG_EQUIPMENT) &&
        st->units[f->unit].type == OPFOR_UT_VEHICLE)
        return f->quality;
    return vk_class(f);
}

/* Marks unit u (and its figures) as having acted this turn (V.A). */
static inline void vk_mark_acted(opfor_vk_state_t *st, int u) {
    opfor_unit_t *un = &st->units[u];
    un->flags |= OPFOR_UNIT_ACTED;
    for (int i = un->first; i < un->first + un->count; i++)
        st->figures[i].flags |= OPFOR_FIG_ACTED;
}

/* One die as a player rolls it. */
static inline int vk_d6(opfor_vk_state_t *st) {
    return (int)opfor_rng_below(&st->rng, 6) + 1;
}
/* A d3: a d6 halved, rounded up (VIII). */
static inline int vk_d3(opfor_vk_state_t *st) {
    return (vk_d6(st) + 1) / 2;
}
/* Rolls r as a player would; 1 success. *first gets the first die (0 if none rolled). */
int vk_roll(opfor_vk_state_t *st, const vk_roll_t *r, int *first);
/* Rolls a fire hit as a player would, with the critical (IX) as the calculator renders it
 * (crit: its "critical" roll, a 6 then a 6): *critical is 1 for a hit that kills outright.
 * The critical's chance is crit's rendered chance whenever a hit is possible, and a critical
 * is always a hit. Returns 1 on a hit. */
int vk_roll_hit(opfor_vk_state_t *st, const vk_roll_t *hit, const vk_roll_t *crit, int *critical);
/* Rolls an effect table after a failed save/test: 0 scratch, 1 wound, 2 kill. */
int vk_effect_roll(opfor_vk_state_t *st, const vk_effect_t *e, int *face);
/* Rolls deviation: a D8 direction relative to the line of fire, distance from dice. */
opfor_pt_t vk_deviate(opfor_vk_state_t *st, opfor_pt_t from, opfor_pt_t aim,
                      const opfor_dice_t *dist, float *moved);

/* Unit geometry. */
typedef struct vk_ugeo {
    opfor_pt_t c; /* mean position of living figures */
    float r;      /* largest distance from c to a living figure's base edge */
    float rc;     /* largest distance from c to a living figure's centre (scan only) */
    int n;        /* living figures */
} vk_ugeo_t;
void vk_unit_geo(const opfor_vk_state_t *st, int u, vk_ugeo_t *g);
/* Closest pair of living figures of units a and b; returns the base-to-base gap (or a
 * large number when one has none) and the figure indices. */
float vk_nearest_pair(const opfor_vk_state_t *st, int a, int b, int *fa, int *fb);
/* Nearest living figure of unit u to point p (centre distance squared in *d2). */
int vk_nearest_fig(const opfor_vk_state_t *st, int u, opfor_pt_t p, float *d2);
/* Whether figure f can see figure g (terrain only). */
int vk_los(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int g);
/* Whether some figure of u sees some figure of t within max_range (base to base); tries the
 * nearest pairs. */
int vk_unit_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                 float max_range);
/* The first feature that stops a formation of radius r moving along a-b (impassable, or closed
 * to riders when riders), met by its centre line or a flank; -1 if none (the legal list's
 * waypoint search, engine_list.c). */
int vk_move_blocker_wide(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b, float r,
                         int riders);
/* What a listing knows of a unit's living figures from the one pass that measures it: or-ed
 * flags, weapons and skills, and the counts the helpers would count again. The legal list skips
 * a helper whose answer the profile shows must be no (tests/rulesets/test_engine_list_fast.c). */
typedef struct vk_uprof {
    unsigned flags, weapons, skills;
    int alive;      /* living figures: opfor_vk_unit_present */
    int wounded;    /* living wounded persons: vk_wounded_count */
    int leaders;    /* living figures with the leader skill (vk_split_leaders counts fewer) */
    int horse_free; /* a living figure with a horse, not mounted (vk_can_mount's first test) */
    int gun;        /* the first living figure with a field gun, or -1: vk_gun_figure */
} vk_uprof_t;
void vk_unit_profile(const opfor_vk_state_t *st, int u, vk_uprof_t *prof);
/* Whether unit u is in play and on the table. Inline: the engine asks it everywhere. */
static inline int vk_unit_active(const opfor_vk_state_t *st, int u) {
    if (u < 0 || u >= st->nunits)
        return 0;
    if (st->ux[u].removed || (st->units[u].flags & OPFOR_UNIT_OFF_TABLE))
        return 0;
    /* A unit is its people: a gun or wagon whose crew is gone stays on the table as a
       wreck, not a unit (XI: transport is left standing). Machines act on their own (XII). */
    const opfor_unit_t *un = &st->units[u];
    int machine = un->type >= OPFOR_UT_VEHICLE;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (machine || vk_is_person(&st->figures[i])))
            return 1;
    return 0;
}
/* Whether f is a figure of a unit that is in play. */

/* Appends an action of kind for unit u (no target, no figure, the rest zero) when want has the
 * kind's bit and out has room; NULL otherwise. For the listers outside engine_list.c's own. */
static inline opfor_vk_action_t *vk_put(opfor_vk_action_t *out, int max, int *n, uint32_t want,
                                        int kind, int u) {
    if (!(want & (1u << kind)) || *n >= max)
        return NULL;
    opfor_vk_action_t *a = &out[(*n)++];
    memset(a, 0, sizeof *a);
    a->kind = (uint8_t)kind;
    a->unit = (uint8_t)u;
    a->target = OPFOR_VK_NONE;
    a->figure = OPFOR_VK_NO_FIGURE;
    return a;
}
/* One step of a selection sort by key: moves the least of key[j..n) (the first of equal ones)
 * and its id to slot j. */
static inline void vk_select_least(float *key, int *id, int j, int n) {
    int b = j;
    for (int i = j + 1; i < n; i++)
        if (key[i] < key[b])
            b = i;
    float tk = key[j];
    key[j] = key[b];
    key[b] = tk;
    int ti = id[j];
    id[j] = id[b];
    id[b] = ti;
}

/* ---------------------------------------------------------------- harm */

/* Applies an effect to figure f: 1 wound, 2 kill; melee 1 when dealt in melee (colours
 * are captured then). Records casualties for morale. */
void vk_harm(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, int effect, int melee,
             int by_side, opfor_vk_events_t *ev);

/* ---------------------------------------------------------------- movement (engine_move.c) */

/* Movement kinds for vk_move_unit. */
enum { VK_MV_ADVANCE = 0, VK_MV_RUN, VK_MV_CHARGE, VK_MV_CRAWL };
/* Or-ed into the kind: move the people only, leaving guns and wagons behind (X: crews
 * abandon their pieces when they flee). */
#define VK_MV_PERSONS 0x10
/* X for figure f moving with kind mv (the calculator's move action), limbered gun flag. */
int vk_move_x(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int mv);
/* Inches of allowance a vehicle (XII options, not a train) pays to turn from its facing to
 * direction dir before it moves: its frontage times the angle (XII.C); 0 for other units. */
#define vk_turn_cost opfor__vk_turn_cost
float vk_turn_cost(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, opfor_vec_t dir);
/* Moves unit u as a group toward dest (through via when has_via) with one d3 roll (or the
 * given allowance bonus when d3 > 0). Returns the distance moved by the formation.
 * contact_unit: enemy unit whose bases may be touched (charges), or -1. stop_gap: stop when
 * the nearest figure is within this gap of contact_unit (charges), else 0. */
float vk_move_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mv, opfor_pt_t dest,
                   int has_via, opfor_pt_t via, int d3, int contact_unit, opfor_vk_events_t *ev);
/* Why a move stopped (opfor_vk_move_result_t's why: the same values). */
enum { VK_STOP_ARRIVED = 0, VK_STOP_ALLOWANCE, VK_STOP_GROUND, VK_STOP_UNIT, VK_STOP_EDGE };
/* What vk_move_unit_stop tells about the move it made. */
typedef struct vk_move_stop {
    int why;          /* VK_STOP_*: the reason the last leg ended short, or ARRIVED */
    int fig;          /* VK_STOP_UNIT: the figure whose base it met, else -1 */
    int d3;           /* the d3 the move used */
    float allowance;  /* the least allowance of its movers (X + d3), before any turning cost */
    float moved;      /* do_action's: the distance vk_do_move returned */
    int has_block;    /* 1: block is set (a move on the ground; not a flight) */
    opfor_pt_t block; /* the living figures' centre where the formation's move ends, before
                         stragglers close up (vk_cohere): where the table's block of figures
                         ends when moved as one */
} vk_move_stop_t;
/* vk_move_unit telling why it stopped in *stop (may be NULL): the same move, bit for bit.
 * fire_t >= 0 (only with has_via): the unit makes its moving fire at unit fire_t
 * (vk_moving_fire) when it reaches via, or where the first leg stops short of it (IX: moving
 * fire at any point of the move); -1: no fire during the move. */
#define vk_move_unit_stop opfor__vk_move_unit_stop
float vk_move_unit_stop(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mv,
                        opfor_pt_t dest, int has_via, opfor_pt_t via, int d3, int contact_unit,
                        int fire_t, opfor_vk_events_t *ev, vk_move_stop_t *stop);
/* The movement of action a (OPFOR_VK_ADVANCE, RUN or CRAWL) by its unit, as the action phase
 * resolves it: a craft flies (vk_fly); others remount or dismount as a's flags say, then
 * move toward a->dest through a->via (OPFOR_VK_AF_VIA). d3: the move's d3 (1..3), or 0 to
 * roll it from st->rng. The one code path of both the engine's apply and the move query.
 * Returns the distance moved; *stop (may be NULL) gets why it stopped. */
#define vk_do_move opfor__vk_do_move
float vk_do_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                 int d3, opfor_vk_events_t *ev, vk_move_stop_t *stop);
/* Fills *out (opfor_vk_move_result_t) for the move a made from a unit centred at from, now
 * standing as in after: moved and stop as vk_do_move gave them. The one reading of a move for
 * the query (opfor_vk_query_move_result) and the apply (opfor_vk_apply_move). */
#define vk_move_result_fill opfor__vk_move_result_fill
void vk_move_result_fill(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *after,
                         const opfor_vk_action_t *a, opfor_pt_t from, float moved,
                         const vk_move_stop_t *stop, opfor_vk_move_result_t *out);
/* Moves figure f alone toward p up to `allow` inches (terrain adjusted); stops at contact
 * with contact_unit's bases (or keeps the enemy gap). Returns the distance moved. */
float vk_move_figure(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, opfor_pt_t p,
                     float allow, int contact_unit);
/* Whether craft u may make the altitude change dz (levels, negative down) this move: one
 * level for a balloon (none up once damaged), two for a dirigible, never below the ground. */
int vk_fly_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int dz);
/* A balloon's or dirigible's move (XII.D): the altitude change dz, and for a dirigible aloft
 * a straight flight toward dest of up to twice transport advance mounted (X + d3), over
 * terrain and figures, kept on the table. d3: the flight's d3 (1..3), 0 to roll it. Returns
 * the distance flown. */
float vk_fly(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t dest, int dz,
             int d3, opfor_vk_events_t *ev);
/* Flight: unit u runs (full run move) directly away from point from. */
float vk_flee(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t from,
              opfor_vk_events_t *ev);
/* Closes up stragglers beyond VK_COHERENCY (VIII). */
void vk_cohere(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float allow);
/* Whether figure f standing at p (radius r) would overlap another base or stand in
 * impassable terrain or off the table. */
int vk_spot_blocked(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, opfor_pt_t p,
                    float r, int mounted);
int vk_mount(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mount, int dry_run);
int vk_can_mount(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
int vk_can_dismount(const opfor_vk_state_t *st, int u);

/* ---------------------------------------------------------------- fire (engine_fire.c) */

/* Best firearm of figure f that reaches gap inches: OPFOR_VK_R_PISTOL.. or -1. */
int vk_firearm_m(const opfor_viktoria_model_t *m, const opfor_figure_t *f, float gap);
#define vk_firearm(f, gap) vk_firearm_m(&ctx->model, (f), (gap))
/* Unit u fires personal weapons at unit t (moving 1 for moving fire; aim flags). Returns
 * shots fired. */
int vk_fire_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                 unsigned aim, opfor_vk_events_t *ev);
/* How many figures of unit u would fire at unit t (aim flags) if none of their shots harmed:
 * vk_fire_unit's shooters, read without rolling. */
int vk_fire_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                  unsigned aim);
/* vk_fire_unit with the figure the order names (IX: the player chooses each firer's target):
 * each firer shoots at figure `named` of unit t first when it can (in range, in sight, not
 * behind another figure) while that figure stands, else as vk_fire_unit picks; -1: none. */
#define vk_fire_unit_at opfor__vk_fire_unit_at
int vk_fire_unit_at(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                    unsigned aim, int named, opfor_vk_events_t *ev);
/* vk_fire_count with a named figure, as vk_fire_unit_at shoots. */
#define vk_fire_count_at opfor__vk_fire_count_at
int vk_fire_count_at(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                     unsigned aim, int named);
/* Whether figure g may be named as the target of fire at unit t: a living person of t not in
 * combat contact (IX). */
#define vk_fire_figure_ok opfor__vk_fire_figure_ok
int vk_fire_figure_ok(const opfor_vk_state_t *st, int t, int g);
/* Moving fire (VI, IX) of unit u at unit t from where its figures stand now, when t is still
 * a target (vk_fire_target_ok); nothing otherwise. Returns the shots. */
#define vk_moving_fire opfor__vk_moving_fire
int vk_moving_fire(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t,
                   opfor_vk_events_t *ev);
/* Fire at figure g from figure f with weapon w at gap inches (bracket from the model),
 * given the fire modifiers; returns the effect (0 none/scratch/saved, 1 wound, 2 kill).
 * moving: 1 for moving fire, or-ed with VK_SHOOT_NO_COVER when g is charging (X: chargers
 * and counter-chargers get no benefit of cover; a machine's armour still counts). */
#define VK_SHOOT_NO_COVER 2
int vk_shoot(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, int g, int w, float gap,
             int moving, opfor_vk_events_t *ev);
/* Cover of target figure g against fire from point from (terrain, prone counts separately;
 * automaton armour adds). */
int vk_cover(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int g, opfor_pt_t from);
/* Whether fire from f to g is blocked by the half-inch gap rule (IX). */
int vk_lane_blocked(const opfor_vk_state_t *st, int f, int g);
/* Whether unit t may be fired on (not in melee, has person figures). */
int vk_fire_target_ok(const opfor_vk_state_t *st, int t);
/* Whether figure g is in combat contact (X): its base touches (within VK_CONTACT) a living
 * figure of a unit its own unit is in melee with. Such a figure is no target for fire and
 * does not fire (IX). */
#define vk_in_contact opfor__vk_in_contact
int vk_in_contact(const opfor_vk_state_t *st, int g);
/* vk_firearm_m for fire across lv altitude levels (XII.D): the best firearm whose bracket,
 * lv brackets further out, is still in range; -1 when none. lv 0: vk_firearm_m. */
int vk_firearm_lv(const opfor_viktoria_model_t *m, const opfor_figure_t *f, float gap, int lv);
/* vk_unit_reach_m across lv altitude levels: the farthest tabletop gap some firearm of u still
 * reaches with the levels added (1e9 for a rifle), 0 when none. */
float vk_unit_reach_lv(const opfor_viktoria_model_t *m, const opfor_vk_state_t *st, int u, int lv);
/* Max firearm reach of unit u's figures (inches), 0 when none. */
float vk_unit_reach_m(const opfor_viktoria_model_t *m, const opfor_vk_state_t *st, int u);
#define vk_unit_reach(st, u) vk_unit_reach_m(&ctx->model, (st), (u))

/* ---------------------------------------------------------------- morale (engine_morale.c) */

/* Checks morale of unit u (XI): returns 1 passed, 0 failed (status becomes Wavering). */
int vk_morale_check(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* The roll of u's morale check now, without rolling it: its check-boxes (general 8, musician
 * 4, colours 2, half strength 1) in *bits and the roll in *out. Returns the quality it checks
 * as, or -1 when it never checks (only equipment left). */
int vk_morale_need(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *bits,
                   vk_roll_t *out);
/* Morale checks of every unit with casualties this activation (in index order). */
void vk_morale_after(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev);
/* The roll unit u needs to rally now (XI): its best person's quality (civilian with none) and the
 * general, musician, colours and half-strength boxes. */
const vk_roll_t *vk_rally_need(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Rally (XI): 1 Solid again, 0 removed. */
int vk_rally(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Whether figure f gives command to side: alive, a person, in play on the table, and a
 * general (skill or general unit, VII) or a member of a headquarters unit (XV.B). Read from
 * the state, so generals brought on during the game count. */
static inline int vk_commander(const opfor_vk_state_t *st, int f, int side) {
    const opfor_figure_t *g = &st->figures[f];
    const opfor_unit_t *gu = &st->units[g->unit];
    if (!(g->skills & OPFOR_S_GENERAL) && !(gu->flags & OPFOR_UNIT_GENERAL) &&
        gu->type != OPFOR_UT_HEADQUARTERS)
        return 0;
    return gu->side == side && (g->flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR)) == OPFOR_FIG_ALIVE &&
           !(g->flags & OPFOR_FIG_EQUIPMENT) && !st->ux[g->unit].removed &&
           !(gu->flags & OPFOR_UNIT_OFF_TABLE);
}
/* Distance from unit u to its nearest commander (vk_commander); large when none (VII). */
float vk_command_distance(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Whether unit u must test for command (VII): not self-commanding, not a general, beyond
 * the radius, not relayed by a playing musician. */
int vk_needs_command_test(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* The command test roll for u (VII). */
int vk_command_test(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Musicians of u start playing (VII, XI) when allowed: upright (not prone, not running), not
 * having attacked in a melee this turn, not controlled by a mesmerist. */
void vk_musician_play(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u);
/* Promotes an NCO when u has no leader (VII). */
void vk_promote(opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Removes unit u from play (rout, surrender, failed rally). */
void vk_remove_unit(opfor_vk_state_t *st, int u, const char *why, opfor_vk_events_t *ev);
/* Leaders of u that may head a split (not promoted) — count. */
int vk_split_leaders(const opfor_vk_state_t *st, int u);
/* Whether u may split off its n living persons nearest p (V.A): each part keeps a leader who
 * may head it (vk_split_leaders' kind), some person stays, a unit slot is free. */
int vk_split_ok(const opfor_vk_state_t *st, int u, int n, opfor_pt_t p);
/* Splits u (V.A): the n living persons nearest p become a new unit that waits for its own
 * initiative, u keeps the rest and acts on; n < 0: the older cut at the middle of the figure
 * block, between the first two such leaders. Returns 1 when it split. */
int vk_split(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int n, opfor_pt_t p,
             opfor_vk_events_t *ev);
int vk_merge(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int into,
             opfor_vk_events_t *ev);
/* Half or more of the unit gone (XI). */
int vk_half_strength(const opfor_vk_state_t *st, int u);

/* ---------------------------------------------------------------- melee (engine_melee.c) */
/* How many figures of the charged unit would fire at the chargers in defensive fire (X) if no
 * shot harmed: defensive fire's shooters, read without rolling. *range0 (may be NULL) gets the
 * range the first of them fires at, inches (X: set by its quality), -1 when none fires. */
int vk_defensive_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, float *range0);

/* Whether u may charge t (visible, within reach of a charge roll). */
int vk_can_charge(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t);
/* The farthest a charge by u could reach (best charge X plus a 3), inches. */
float vk_charge_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* t is an enemy in play with people to charge, and u is free to charge. */
int vk_charge_target_ok(const opfor_vk_state_t *st, int u, int t);
/* Declares and starts a charge; hold: the chargers make no follow-up advance (X step 8).
 * Returns 1 when the charged unit must now choose a reaction (phase REACTION), 0 when the
 * charge was resolved in full. */
int vk_charge(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int hold,
              opfor_vk_events_t *ev);
/* Completes the pending charge with the charged unit's reaction r (an OPFOR_VK_REACT_* action:
 * its kind; for a flight, dest and the move in arc, vk_flight_move; OPFOR_VK_AF_HOLD: no
 * follow-up advance, X step 9). */
void vk_charge_react(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *r,
                     opfor_vk_events_t *ev);
/* The VK_MV_* move of a flight reaction from its action's arc (opfor_vk_flight_kind), or -1
 * when arc names no flight. */
static inline int vk_flight_move(int arc) {
    int k = opfor_vk_flight_kind(arc);
    return k == OPFOR_VK_RUN       ? VK_MV_RUN
           : k == OPFOR_VK_ADVANCE ? VK_MV_ADVANCE
           : k == OPFOR_VK_CRAWL   ? VK_MV_CRAWL
                                   : -1;
}
/* Reactions open to the charged unit. */
int vk_can_counter(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t);
int vk_can_defensive_fire(const opfor_vk_state_t *st, int t);
/* Rolls figure a's melee attack (X) on figure d with a's best weapon (charging: a charges;
 * cover: d's cover), as a melee blow is rolled; returns the effect (0, 1 wound, 2 kill), not
 * applied. d may be a itself (a mesmerised figure's self-injury, XII.B). */
int vk_melee_attack(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int a, int d, int charging,
                    int cover);
/* Ongoing melee (X): resolves every attack in u's melee. */
void vk_fight(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Drops melee links that no longer have figures in contact. */
void vk_melee_refresh(opfor_vk_state_t *st);

/* ---------------------------------------------------------------- blast (engine_blast.c) */

int vk_mg_figure(const opfor_vk_state_t *st, int u);            /* the MG equipment figure or -1 */
int vk_gun_figure(const opfor_vk_state_t *st, int u);           /* the field gun figure or -1 */
int vk_crew(const opfor_vk_state_t *st, int u, int *unwounded); /* living crew */
int vk_can_fire_mg(const opfor_vk_state_t *st, int u, int arc);
/* Whether u's field gun may fire: crewed, unlimbered, loaded or crewed by two; a walker's
 * guns are served by its own integral crew under the XII options. */
int vk_can_fire_gun(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Shots a gun unit fires per action: 3 for a walker under the XII options (XII.E), else 1. */
int vk_gun_shots(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
void vk_fire_mg(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int arc, opfor_pt_t aim,
                opfor_vk_events_t *ev);
/* Whether the crew of unit u's gun sees point p (IX: the intended fall of shot must be in the
 * crew's sight): a living person of u, or the walker itself (XII.E), has a clear line to it. */
#define vk_gun_sees opfor__vk_gun_sees
int vk_gun_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, opfor_pt_t p);
/* How many figures vk_fire_mg would test (a figure in both arcs of a double 45 twice), without
 * rolling: every figure of any unit but u in the arc aimed at aim, not concealed. */
int vk_mg_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int arc,
                opfor_pt_t aim);
/* vk_mg_count for the figures of one side only (side < 0: every side); per_unit (NULL, or
 * st->nunits entries) gets each unit's share. */
int vk_mg_count_units(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int arc,
                      opfor_pt_t aim, int side, int *per_unit);
/* u's field gun fires: one shell at aims[0]; a walker's three shells (vk_gun_shots) one at
 * each of aims[0..naims) in turn, the last aim taking the shots left (XII.E). naims >= 1. */
void vk_fire_gun(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, const opfor_pt_t *aims,
                 int naims, opfor_vk_events_t *ev);
int vk_can_call_support(const opfor_vk_state_t *st, int u);
/* vk_can_call_support with the team the scenario sets (IX): at least support_team[side] living
 * signallers in u. */
int vk_support_team_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
void vk_call_support(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t aim,
                     opfor_vk_events_t *ev);
int vk_bombers(const opfor_vk_state_t *st, int u);
void vk_throw_bombs(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t,
                    opfor_vk_events_t *ev);
/* Every figure within radius of p tests versus blast kind k (IX). */
void vk_blast(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_pt_t p, float radius, int k,
              int by_side, opfor_vk_events_t *ev);

/* ---------------------------------------------------------------- specials (engine_special.c) */

int vk_wounded_count(const opfor_vk_state_t *st, int u);
/* How many wounded of u an order out of line would send to the rear (IX): living wounded
 * persons who are not leaders or generals, at most all but one of the unit's figures. */
int vk_rear_sendable(const opfor_vk_state_t *st, int u);
/* Sends u's wounded to the rear (IX; vk_rear_sendable of them). Does not end the activation. */
void vk_to_rear(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Figures of u at the rear whose wounds have been bound: they may rejoin (IX). */
int vk_rear_bound(const opfor_vk_state_t *st, int u);
/* Brings u's bound wounded back from the rear beside their fellows (IX); returns how many
 * came back. Does not end the activation. */
int vk_rear_return(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Medics of u within reach of a wounded friendly figure on the table (restricted: 6 in only). */
int vk_can_heal(const opfor_vk_state_t *st, int u);
/* Medics of u at their own table edge (within 6 in) with a wounded man of their side at the
 * rear to tend (IX, VI). */
int vk_can_heal_rear(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Every ready medic of u tends one man (VI; engine_special.c); rear_ok: men at the rear too. */
void vk_heal(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int rear_ok,
             opfor_vk_events_t *ev);
int vk_mesmerists(const opfor_vk_state_t *st, int u);
void vk_mesmerize(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int g,
                  opfor_vk_events_t *ev);
/* At activation: each mesmerised figure of u tests to break the spell (XII.B); those still
 * held are flagged OPFOR_VK_FX_CONTROLLED. Returns how many remain controlled. */
int vk_mesmer_tests(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* The start-of-turn weather event (XIII) and its effects on flying craft (XII.D). */
void vk_weather_event(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev);
/* A balloon's or dirigible's drift with the wind, made as its move when it activates (XII.D):
 * none in calm air, on the ground or tethered; else transport advance on foot (light airs) or
 * mounted (a steady breeze), twice that in high winds, three times in a gale, X + d3, downwind.
 * Blown off the table, it is removed. */
void vk_craft_drift(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev);
/* Start-of-turn specials: flying craft start aloft, a damaged balloon sinks, high winds and
 * gales damage craft aloft (XII.D). */
void vk_specials_turn(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev);
/* Armour of special units as extra cover levels (XII.A, XII.C). */
int vk_armour(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);

/* Damage to the envelope of balloon or dirigible u (XII.D): effect 1 one damage (the craft
 * sinks a level at once), 2 (or a second damage) destroyed: it falls and its passengers roll. */
void vk_craft_damage(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int effect,
                     opfor_vk_events_t *ev);
/* Whether unit u may fire its personal weapons at the envelope of craft t (XII.D): t a balloon
 * or dirigible not yet destroyed, in play and not in melee, some figure of u reaching t's
 * nearest figure with the altitude levels added, in sight (a craft in the air is always seen). */
int vk_can_fire_craft(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t);
/* Unit u fires at the envelope of craft t: each able figure one shot at the Civilian class, no
 * cover, Wounded once damaged, with a save; a wound is one damage, a kill destroys it (XII.D).
 * moving: moving fire. Returns the shots. */
int vk_fire_craft(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                  opfor_vk_events_t *ev);
/* How many figures of u vk_fire_craft would fire, without rolling. */
int vk_fire_craft_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t);

/* ---------------------------------------------------------------- tables (engine_tab.c) */

int vk_tabs_build(opfor_vk_ctx_t *ctx, opfor_diag_t *diag);

#endif
