# Sourced by the scripts that read an SPRT's outcome from its log (start.sh, after-sprt.sh,
# tech-sprt.sh, save-state.sh, the turns' scripts): logs/sprt-STEM.log under /work/campaign,
# where net-sprt.sh and tech-sprt.sh append the match's output and, when it ends (a verdict, its
# cap, or a stop by hand), the closing row "Row for docs/strength.md".
# `decided STEM`: the SPRT has its closing row. `passed STEM`: it ended with H1 accepted.
decided() { grep -q "Row for docs/strength.md" /work/campaign/logs/sprt-$1.log 2>/dev/null; }
passed() { grep -q "H1 accepted" /work/campaign/logs/sprt-$1.log 2>/dev/null; }
