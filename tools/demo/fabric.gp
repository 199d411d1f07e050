# SPDX-License-Identifier: GPL-2.0
# make demo: share of leaf1's uplink bytes per uplink, one group of bars per
# hash mode. Called with -e "datafile='...'; outfile='...'"; datafile rows:
# mode up1 up2 up3 up4 (percent) imbalance (busiest / mean) time (ms, the
# collective's completion).
set terminal pngcairo size 900,520 font "sans,11"
set output outfile
set title sprintf("rocedp on a 2-leaf x 4-spine fabric, shaped links: share of leaf1's uplink bytes and completion per hash mode\n(ring AllReduce over 4 hosts, %s QPs per connection, one UDP source port per host pair)", qps)
set ylabel "share of uplink bytes (%)"
set yrange [0:105]
set ytics 0,25,100
set grid ytics lc rgb "#dddddd"
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
set xrange [-0.6:2.6]
set bmargin 4.5
set key top right
# the even share (each of 4 uplinks 25%)
set arrow from graph 0, first 25 to graph 1, first 25 nohead dt 2 lc rgb "#555555"
set label "even: 25%" at graph 0.01, first 28 tc rgb "#555555"
plot datafile using 2:xtic(sprintf("%s\nimbalance %.2f, %.0f ms", strcol(1), $6, $7)) title "up1" lc rgb "#1f77b4", \
     '' using 3 title "up2" lc rgb "#ff7f0e", \
     '' using 4 title "up3" lc rgb "#2ca02c", \
     '' using 5 title "up4" lc rgb "#d62728"
