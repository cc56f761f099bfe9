"""The runtime vocabulary a rulespec may name without defining it.

Names used in actions, procedures, functions, triggers and invariants must be
a parameter, a local (`let`, `for`, a quantifier's variable), a clause of the
title (a property, component, table, enum value, routine ...), or one of
these builtins, which `compiler.runtime` provides. Each entry says what it is;
the site publishes this table.
"""

#: name -> one-line meaning. Money in currency units; percent as integers.
BUILTINS: dict[str, str] = {
    # holders and entities
    "bank": "the bank (finite or unlimited)",
    "pool": "the bank pool (the market for shares)",
    "ipo": "a corporation's unsold shares in the IPO",
    "treasury": "a corporation's own shares held in its treasury",
    "depot": "the trains not yet bought",
    "scrap": "where rusted trains go",
    "players": "the players, in seating order",
    "corporations": "every corporation",
    "privates": "every private company",
    "minors": "every minor company",
    "holders": "every holder of money: bank, players, corporations",
    "current_player": "the player whose turn it is",
    "current_corporation": "the corporation operating now",
    "phase": "the current phase",
    "round": "the current round (type and number)",
    "priority_deal": "the player holding the priority deal",
    # queries
    "cash": "cash(h): money held by h (currency units)",
    "price": "price(C): the market price of one 10% share of C",
    "par_price": "par_price(C): the par price of C",
    "percent": "percent(h, C): percent of C held by h (integer)",
    "certificates": "certificates(P): the certificates P holds that count against the limit",
    "president": "president(C): the president of C, or none",
    "floated": "floated(C): whether C has floated",
    "zone": "zone(C): the zone tags of C's market cell",
    "sold_this_round": "sold_this_round(P, C): whether P sold C in this stock round",
    "share": "share(C): one ordinary share certificate of C",
    "trains": "trains(h): the trains held by h",
    "revenue": "revenue(C): the revenue of C's routes this turn",
    "owner": "owner(x): the holder of a certificate, private or train",
    "first": "first(xs): the first of xs, or none",
    "len": "len(xs): how many",
    "min": "min(a, b, ...): the least",
    "max": "max(a, b, ...): the greatest",
    "floor_to": "floor_to(x, n): x rounded down to a multiple of n",
    "ceil_to": "ceil_to(x, n): x rounded up to a multiple of n",
}
