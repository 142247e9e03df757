# Shared by the bench scripts (sourced).

# time_command TIMEFILE COMMAND...: runs COMMAND under /usr/bin/time -v
# (its output discarded, its failure ignored) and prints
# "WALL_S CPU_S RSS_KB", CPU being user + system time.
time_command() {
  local file=$1; shift
  /usr/bin/time -v "$@" > /dev/null 2> "$file" || true
  awk -F': ' '
    /Elapsed \(wall clock\)/ {
      n = split($2, p, ":")
      if (n == 3) wall = p[1] * 3600 + p[2] * 60 + p[3]
      else wall = p[1] * 60 + p[2]
    }
    /User time/ { user = $2 }
    /System time/ { sys = $2 }
    /Maximum resident/ { rss = $2 }
    END { printf "%.2f %.2f %d\n", wall, user + sys, rss }' "$file"
}
