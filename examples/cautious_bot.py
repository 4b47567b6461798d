import threading

from handfoot.client import Client, GameTeamInput, SeatView
from handfoot.client.bots import Action, Bot, Choose, policy_choose


def cautious(seed: int) -> Choose:
    greedy = policy_choose("greedy", seed=seed)

    def choose(sv: SeatView) -> list[Action]:
        answer = sv.action("answer")  # listed with its bodies: the yes and the no
        if answer is not None:  # "May I go out?": yes only with few cards left to be caught with
            return [body for body in answer["send"] if body["yes"] is (len(sv.hand) <= 5)]
        return list(greedy(sv))  # otherwise play as the greedy bot

    return choose


with Client() as hf:
    teams: list[GameTeamInput] = [
        {"name": "Cautious", "players": ["Ann", "Cy"]},
        {"name": "Random", "players": ["Bo", "Di"]},
    ]
    table = hf.create_table(
        name="Write a bot", preset="pagat", teams=teams, seed=2026, rules={"rounds": 1}
    )  # a game of one round
    minds = [cautious(0), policy_choose("random", seed=1), cautious(2), policy_choose("random", seed=3)]
    seats = [
        threading.Thread(target=Bot(Client(hf.base_url), table.id, token, mind).play)
        for token, mind in zip(table.tokens, minds, strict=True)
    ]
    for seat in seats:
        seat.start()
    for seat in seats:
        seat.join()
    print(hf.scoresheet(table.game))
