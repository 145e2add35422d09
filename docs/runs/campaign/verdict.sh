# Sourced by the scripts that read an SPRT's outcome from its log (start.sh, after-sprt.sh,
# tech-sprt.sh, save-state.sh, the turns' scripts): logs/sprt-STEM.log under /work/campaign,
# where net-sprt.sh and tech-sprt.sh append the match's output and, when it ends (a verdict, its
# cap, or a stop by hand), the closing row "Row for docs/strength.md".
# `decided STEM`: the SPRT has its closing row. `passed STEM`: it ended with H1 accepted.
decided() { grep -q "Row for docs/strength.md" /work/campaign/logs/sprt-$1.log 2>/dev/null; }
passed() { grep -q "H1 accepted" /work/campaign/logs/sprt-$1.log 2>/dev/null; }
# `turn_init NEW OLD` (the fine-tune turns' start, from gen2ft14): the float model a turn starts
# from, $C/nnue/NEW/RUN/best.ckpt if turn NEW's SPRT (gen2ftN-RUN) passed, else OLD's; fails,
# printing why, while NEW's SPRT has no closing row (the turn's data files cut the live files
# where they stand, so a turn waits for the verdict it starts from). RUN is all-b8-lr5e-5-e4, or
# what the turn's folder names in `chosen` (from gen2ft15, which trains three runs and keeps one).
run_of() { cat /work/campaign/nnue/$1/chosen 2>/dev/null || echo all-b8-lr5e-5-e4; }
# `turn_winner NEW OLD` (from gen2ft16): NEW if its SPRT passed, else OLD, failing the same
# way; what turn_init starts from and what the next turn's SPRT plays against.
turn_winner() {
  local run=$(run_of $1)
  decided $1-$run || { echo "$1's SPRT is not decided yet; the turn starts from the winner" >&2; return 1; }
  if passed $1-$run; then echo $1; else echo $2; fi
}
turn_init() {
  local w
  w=$(turn_winner $1 $2) || return 1
  echo /work/campaign/nnue/$w/$(run_of $w)/best.ckpt
}
