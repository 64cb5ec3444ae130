"""Dark Ages: Holy Roman Empire — the base game engine."""

from rules.core.registry import register
from rules.hre import (  # noqa: F401  (each module registers its frame handlers)
    battle,
    build,
    culture,
    economy,
    flow,
    freeacts,
    handlers,
    manoeuvre,
    modules,
    outcome,
    passing,
    reactions,
    recruit,
    research,
    setup,
    titles,
)
from rules.hre.engine import HreEngine

# The base rules' tables, kept before any module extends them (a base game runs on these).
handlers.MACHINE.keep_base()

from rules.hre.modules import (  # noqa: E402, F401  (each module registers itself; after the above)
    m01_lordlings,
    m02_great_domain,
    m03_grand_buildings,
    m04_alchemists,
    m05_alliances,
    m06_commanders,
    m07_skirmishers,
    m08_wyrd,
    m09_ages_of_war,
    m10_campaigns,
    m11_tribute,
    m12a_pope,
    m13a_benjamin,
    m14a_crusades,
    m14a_resolve,
    m15a_aid,
    m15a_chrobry,
    m15a_poland,
    m15a_state,
)

modules.ready()  # every decision is registered now: modules may extend them all

ENGINE = register(HreEngine())
