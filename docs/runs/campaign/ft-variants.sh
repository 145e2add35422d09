#!/bin/bash
# The fine-tune's variants (ninth session), after nnue-ft-gen2.sh's first run undid the
# network: a smaller lr and weight decay (the decay is decoupled: lr * wd a step), the K fitted
# to the data (132.2) or generation 2's (145.2). The data and settings: ft-files.sh.
. /work/campaign/ft-files.sh
ft_train lr2e-4-wd0.01 --lr 0.0002 --weight-decay 0.01 --epochs 4
ft_train lr5e-5-wd0.01 --lr 0.00005 --weight-decay 0.01 --epochs 4
ft_train lr2e-4-wd0.01-k145 --lr 0.0002 --weight-decay 0.01 --epochs 4 --k 145.2 --validation-k 145.2
