# SPDX-License-Identifier: GPL-2.0
# make demo's report plots (tools/demo/report.py). Called with -e
# "which='tput|ecn|cdf'; dir='...'; modes='5tuple qp ...'; spines=N;
# outfile='...'; xmax=S; ymax=MBPS". Data: dir/report-MODE.dat (t_s,
# up1..upN Mbit/s, CE marks/s, CNPs/s) and dir/report-cdf-MODE.dat
# (completion ms, fraction of QPs).
set terminal pngcairo size 1000,420 font "sans,10"
set output outfile
set grid lc rgb "#dddddd"
set key top right
n = words(modes)
dat(m) = sprintf("%s/report-%s.dat", dir, m)
if (which eq "tput") {
	set multiplot layout 1, n title "leaf1's transmit rate per uplink over the run (Mbit/s), per hash mode"
	set xrange [0:xmax]
	set yrange [0:ymax]
	set xlabel "time (s)"
	do for [i = 1:n] {
		set title word(modes, i)
		if (i == 1) { set ylabel "Mbit/s" } else { unset ylabel }
		plot for [s = 1:spines] dat(word(modes, i)) using 1:(column(s + 1)) \
			with lines lw 2 title sprintf("up%d", s)
	}
	unset multiplot
}
if (which eq "ecn") {
	set multiplot layout 1, 2 title "CE marks set on both leaves' uplinks and CNPs through both leaves, per second"
	set xrange [0:xmax]
	set xlabel "time (s)"
	set yrange [0:*]
	set title "CE marks / s"
	plot for [i = 1:n] dat(word(modes, i)) using 1:(column(spines + 2)) \
		with lines lw 2 title word(modes, i)
	set title "CNPs / s"
	plot for [i = 1:n] dat(word(modes, i)) using 1:(column(spines + 3)) \
		with lines lw 2 title word(modes, i)
	unset multiplot
}
if (which eq "cdf") {
	set title "per-QP completion time: fraction of the collective's QPs done"
	set xlabel "completion time (ms)"
	set ylabel "fraction of QPs"
	set yrange [0:1.02]
	set key bottom right
	plot for [i = 1:n] sprintf("%s/report-cdf-%s.dat", dir, word(modes, i)) \
		using 1:2 with steps lw 2 title word(modes, i)
}
