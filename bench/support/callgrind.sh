# Sourced by the instruction-count scripts: callgrind_instructions CMD [ARGS...] runs CMD under
# callgrind (its output discarded) and prints the total number of instructions it executed.
callgrind_instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ {print $4}'
}
