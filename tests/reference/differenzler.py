"""Differenzler Jass by RULES.md section 2, slow and plain: the reference."""

from __future__ import annotations

PLAIN_ORDER = "6789TJQKA"  # low to high
TRUMP_ORDER = "678TQKA9J"  # low to high
POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 0, "8": 0, "7": 0, "6": 0}
TRUMP_POINTS = {**POINTS, "J": 20, "9": 14}


def points(card: str, trump: str) -> int:
    return (TRUMP_POINTS if card[1] == trump else POINTS)[card[0]]


def beats(a: str, b: str, led: str, trump: str) -> bool:
    """Does card ``a`` beat card ``b`` in a trick led with suit ``led``?"""
    if a[1] == trump and b[1] != trump:
        return True
    if a[1] == trump and b[1] == trump:
        return TRUMP_ORDER.index(a[0]) > TRUMP_ORDER.index(b[0])
    if b[1] == trump:
        return False
    if a[1] == led and b[1] != led:
        return True
    if a[1] == led and b[1] == led:
        return PLAIN_ORDER.index(a[0]) > PLAIN_ORDER.index(b[0])
    return False


def trick_winner(trick: list[str], trump: str) -> int:
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trick[0][1], trump):
            best = i
    return best


def legal(hand: set[str], trick: list[str], trump: str) -> set[str]:
    if not trick:
        return set(hand)
    led = trick[0][1]
    trumps = {c for c in hand if c[1] == trump}
    if led == trump:
        if not trumps or trumps == {"J" + trump}:
            return set(hand)
        return trumps
    follow = {c for c in hand if c[1] == led}
    if not follow:
        return set(hand)
    in_trick = [c for c in trick if c[1] == trump]
    over = {c for c in trumps if all(TRUMP_ORDER.index(c[0]) > TRUMP_ORDER.index(t[0]) for t in in_trick)}
    return follow | over


def audit(line: dict) -> list[str]:
    """Every way in which a TRACE.md line breaks RULES.md section 2."""
    errors: list[str] = []
    err = errors.append
    deals = line["deals"]
    totals = [0, 0, 0, 0]
    first = deals[0]["dealer"]
    for k, deal in enumerate(deals):
        where = f"game {line['index']} deal {k}"
        if deal["dealer"] != (first + k) % 4:
            err(f"{where}: dealer {deal['dealer']} should be {(first + k) % 4}")
        if deal["leader"] != (deal["dealer"] + 1) % 4:
            err(f"{where}: leader {deal['leader']}")
        hands = [set(h) for h in deal["hands"]]
        every = [c for h in deal["hands"] for c in h]
        if sorted(every) != sorted(set(every)) or len(every) != 36 or any(len(h) != 9 for h in hands):
            err(f"{where}: hands are not a deal of 36 cards, 9 each")
        trump = deal["trump"]
        if deal["trump_card"] not in hands[deal["dealer"]] or deal["trump_card"][1] != trump:
            err(f"{where}: trump card {deal['trump_card']} / trump {trump}")
        if any(not 0 <= d <= 157 for d in deal["declared"]):
            err(f"{where}: declaration out of 0..157")
        made = [0, 0, 0, 0]
        leader = deal["leader"]
        plays = deal["plays"]
        if len(plays) != 36:
            err(f"{where}: {len(plays)} plays")
            continue
        for t in range(9):
            trick: list[str] = []
            for i in range(4):
                p = plays[4 * t + i]
                seat = (leader + i) % 4
                if p["seat"] != seat:
                    err(f"{where} trick {t}: seat {p['seat']} plays, {seat} should")
                want = legal(hands[seat], trick, trump)
                if set(p["legal"]) != want or len(p["legal"]) != len(want):
                    err(f"{where} trick {t}: legal {sorted(p['legal'])} should be {sorted(want)}")
                if p["card"] not in want:
                    err(f"{where} trick {t}: {p['card']} is not legal")
                hands[seat].discard(p["card"])
                trick.append(p["card"])
            w = (leader + trick_winner(trick, trump)) % 4
            made[w] += sum(points(c, trump) for c in trick) + (5 if t == 8 else 0)
            leader = w
        penalty = [abs(d - m) for d, m in zip(deal["declared"], made)]
        if deal["made"] != made:
            err(f"{where}: made {deal['made']} should be {made}")
        if deal["penalty"] != penalty or deal["score"] != penalty:
            err(f"{where}: penalty {deal['penalty']} should be {penalty}")
        totals = [a + b for a, b in zip(totals, penalty)]
        low = min(totals)
        alone = totals.count(low) == 1
        extra_limit = 4 + line["rules"]["max_extra_deals"]
        last = k == len(deals) - 1
        if k >= 3 and not last and (alone or k + 1 >= extra_limit):
            err(f"{where}: the game should have ended here")
        if last and k < 3:
            err(f"{where}: a game has at least four deals")
        if last and not alone and k + 1 < extra_limit:
            err(f"{where}: lowest total shared, a tie-break deal should follow")
    if line["totals"] != totals:
        err(f"totals {line['totals']} should be {totals}")
    winners = [s for s in range(4) if totals[s] == min(totals)]
    if line["winners"] != winners:
        err(f"winners {line['winners']} should be {winners}")
    return errors
