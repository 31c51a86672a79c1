"""Shared by the tests of the *SEM metrics, the scorers and ``evaluate``: the names of the
reference cases (in the shared folder, fixture ``refdir``) and a two-sentence *SEM gold file."""

#: The reference cases; PERL_CASES: those compared with the perl scorer's printout.
CASES = [
    "m01_partial_multiword_cue", "m02_split_multiword_cue", "m03_affix_as_full_word",
    "m04_affix_scope_full_form", "m05_abbreviation_dot", "m06_punct_in_scope",
    "m07_pos_vs_form_punct", "m08_gold_no_scope_system_scope", "m09_duplicate_system_instance",
    "m10_missed_and_spurious_sentence", "m11_one_system_cue_overlapping_two_gold",
    "m12_greedy_order_partial_first", "m13_greedy_order_exact_first", "m14_eof_last_token",
    "m15_eof_last_token_with_blank", "m16_negated_partial_not_last", "m17_negated_partial_last",
    "m18_system_without_negations", "m19_two_gold_one_system_scope_swap",
]
PERL_CASES = [c for c in CASES if c != "m14_eof_last_token"]

#: Two sentences, "I did not go ." (cue "not") and "Yes ." without negation.
GOLD = """d\t0\t0\tI\ti\tPRP\t*\t_\tI\t_
d\t0\t1\tdid\tdo\tVBD\t*\t_\tdid\t_
d\t0\t2\tnot\tnot\tRB\t*\tnot\t_\t_
d\t0\t3\tgo\tgo\tVB\t*\t_\tgo\tgo
d\t0\t4\t.\t.\t.\t*\t_\t_\t_

d\t1\t0\tYes\tyes\tUH\t*\t***
d\t1\t1\t.\t.\t.\t*\t***
"""
