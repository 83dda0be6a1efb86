#!/usr/bin/env bash
# Two (or more) builds of the JMH jar, alternated in one boot, and one table of their scores:
#   benchmarks/jmh-before-after.sh [-n ROUNDS] [-o DIR] BEFORE.jar AFTER.jar [MORE.jar...] [-- JMH ARGS]
#   benchmarks/jmh-before-after.sh -r DIR      the table again from DIR (also of a run cut short)
# Each jar argument is PATH or LABEL=PATH, optionally followed by @JVM-ARGS that its forks get
# (e.g. tuned=target/b.jar@-Dsome.flag=1). Rounds run every jar in turn (A B A B ...), so a
# drift of the rig during the run hits them alike; only ratios within one run mean anything.
# JMH ARGS default to: 'PostPollBenchmark|EmptyPollBenchmark' -wi 2 -i 3 -f 1 -w 1 -r 1 -prof gc
# Prints, per benchmark and parameter, every round's score, the ratio of the medians to the
# first jar's, and the allocation per operation (gc.alloc.rate.norm) when -prof gc was given.
set -euo pipefail
rounds=2
out=
report_only=
while getopts n:o:r: opt; do
  case $opt in
    n) rounds=$OPTARG ;;
    o) out=$OPTARG ;;
    r) out=$OPTARG report_only=1 ;;
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
run() {
jars=()
while (($#)) && [[ $1 != -- ]]; do jars+=("$1"); shift; done
(($#)) && shift
((${#jars[@]} >= 2)) || { sed -n '2,10p' "$0" >&2; exit 2; }
(($#)) || set -- 'PostPollBenchmark|EmptyPollBenchmark' -wi 2 -i 3 -f 1 -w 1 -r 1 -prof gc
out=${out:-$(mktemp -d)}
mkdir -p "$out"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java

labels=()
for i in "${!jars[@]}"; do
  spec=${jars[$i]}
  label=jar$((i + 1))
  [[ $spec == *=* ]] && { label=${spec%%=*}; spec=${spec#*=}; }
  labels+=("$label")
  jars[i]=$spec
done
echo "${labels[*]}" > "$out/labels"

for ((r = 1; r <= rounds; r++)); do
  for i in "${!jars[@]}"; do
    spec=${jars[$i]} label=${labels[$i]}
    jar=${spec%%@*}
    extra=()
    # replaces the benchmarks' own jvmArgsAppend, so it repeats what they append
    [[ $spec == *@* ]] && extra=(-jvmArgsAppend "--enable-native-access=ALL-UNNAMED ${spec#*@}")
    echo "== round $r/$rounds: $label ($jar ${extra[*]:-})" >&2
    "$java" --enable-native-access=ALL-UNNAMED -jar "$jar" "$@" "${extra[@]}" \
      -rf csv -rff "$out/$label.$r.csv" > "$out/$label.$r.log" 2>&1 \
      || { echo "== $label failed in round $r:" >&2; tail -20 "$out/$label.$r.log" >&2; }
  done
done

}

# CSV rows: "Benchmark","Mode","Threads","Samples","Score","Error","Unit"[,"Param: x"...]
report() {
read -ra labels < "$out/labels"
for label in "${labels[@]}"; do
  for csv in "$out/$label".*.csv; do
    [[ -s $csv ]] || continue
    r=${csv%.csv}; r=${r##*.}
    awk -v label="$label" -v round="$r" -F, 'NR > 1 {
      gsub(/["\r]/, "")
      base = $1; secondary = ""
      if ((c = index(base, ":")) > 0) { secondary = substr(base, c + 1); base = substr(base, 1, c - 1) }
      if (secondary != "" && secondary != "gc.alloc.rate.norm") next
      metric = secondary == "" ? "score" : "bop"
      n = split(base, part, "."); name = part[n - 1] "." part[n]
      params = ""; for (i = 8; i <= NF; i++) if ($i != "") params = params (params == "" ? "" : ",") $i
      key = name (params == "" ? "" : "[" params "]")
      print label, round, key, metric, $5, $7 }' "$csv"
  done
done > "$out/all.txt"

awk -v labels="${labels[*]}" -v rounds="$rounds" '
  function median(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { k = $3 SUBSEP $1
    if ($4 == "score") { score[k] = score[k] (score[k] == "" ? "" : " ") sprintf("%.4g", $5); unit[$3] = $6; if (!($3 in seen)) { seen[$3] = 1; order[++keys] = $3 } }
    else bop[k] = bop[k] (bop[k] == "" ? "" : " ") sprintf("%.3g", $5) }
  END {
    nl = split(labels, l, " ")
    printf "| benchmark | unit |"; for (i = 1; i <= nl; i++) printf " %s (each round) |", l[i]
    for (i = 2; i <= nl; i++) printf " %s/%s |", l[i], l[1]
    for (i = 1; i <= nl; i++) printf " %s B/op |", l[i]
    printf "\n|---|---|"; for (i = 1; i < 3 * nl; i++) printf "---:|"; printf "\n"
    for (o = 1; o <= keys; o++) {
      b = order[o]; printf "| %s | %s |", b, unit[b]
      for (i = 1; i <= nl; i++) { s = score[b, l[i]]; gsub(/ /, " / ", s); printf " %s |", s }
      m1 = median(score[b, l[1]])
      for (i = 2; i <= nl; i++) printf " %s |", (m1 > 0 && score[b, l[i]] != "" ? sprintf("%.2f", median(score[b, l[i]]) / m1) : "-")
      for (i = 1; i <= nl; i++) { s = bop[b, l[i]]; gsub(/ /, " / ", s); printf " %s |", (s == "" ? "-" : s) }
      printf "\n" } }' "$out/all.txt"
echo "(raw JMH output: $out)" >&2
}

if [[ -n $report_only ]]; then
  [[ -f $out/labels ]] || ls "$out" | sed -nE 's/^(.*)[.][0-9]+[.]csv$/\1/p' | sort -u | paste -sd' ' > "$out/labels"
else
  run "$@"
fi
report
