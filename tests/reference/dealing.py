"""Plain-Python counter-based streams and shuffles: the reference the
kernels' dealing is compared against (bit for bit)."""

from __future__ import annotations

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
DEAL, PLAY, SETUP = 1, 2, 3
RANKS, SUITS = "23456789TJQKA", "CDHS"


def mix(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


class Stream:
    def __init__(self, seed: int, game: int, deal: int, purpose: int):
        z = mix(seed + GAMMA)
        z = mix(z ^ ((game + GAMMA) & MASK))
        self.state = mix(z ^ ((deal * M1 + purpose) & MASK))

    def next(self) -> int:
        self.state = (self.state + GAMMA) & MASK
        return mix(self.state)

    def below(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32


def deck(size: int) -> list[str]:
    low = 4 if size == 36 else 0
    return [RANKS[r] + SUITS[s] for s in range(4) for r in range(low, 13)]


def shuffled(seed: int, game: int, deal: int, size: int) -> list[str]:
    cards = deck(size)
    st = Stream(seed, game, deal, DEAL)
    for i in range(len(cards) - 1, 0, -1):
        j = st.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_packets(cards: list[str], players: int, dealer: int, packet: int = 3) -> list[list[str]]:
    """Deal ``cards`` in packets from the seat after the dealer, round by round."""
    hands: list[list[str]] = [[] for _ in range(players)]
    pos, seat = 0, (dealer + 1) % players
    while pos < len(cards):
        hands[seat].extend(cards[pos : pos + packet])
        pos += packet
        seat = (seat + 1) % players
    return hands
