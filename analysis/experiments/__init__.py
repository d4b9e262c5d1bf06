"""Experiments: every study computation of cardmc, one module per game.

Each experiment is a plain function of a seed and a game count returning
DataFrames of estimates with their standard errors and 95% CIs (Wilson for
proportions); comparisons are paired on the same deals (game i of a seed is
the same deal under every policy and rule option), and every table records
its seed and game count in ``attrs``. Many games go through
``cardmc.simulate`` (rows in blocks, or ``aggregate=True``) and the game's
aggregates; where a study needs a pairing the aggregates cannot hold, the
module documents the small tally it keeps. ``cardmc.reports`` only calls
these and draws.

* ``differenzler``: ``compare_declarations``, ``declaration_study``;
* ``schieber``: ``duplicate``, ``push_value``, ``fit_evaluation``, ``weis_odds``, ``contract_study``,
  ``push_table``, ``push_rule``;
* ``english_jazz``: ``odds``, ``sweep_study``, ``hand_odds_table``;
* ``norwegian_jazz``: ``sixth_deal_study``, ``heuristic_edge``, ``seat_study``, ``edge_tables``.
"""
