# The model the library measured, as "ts,tw,to", from its INTERGATHER_VERBOSE=2
# line "intergather: INTERGATHER_NET_MODEL=measure: measured between merged
# ranks A and B: ts=...,tw=...,to=..." (or SHM_MODEL; the values are written
# as the setting takes them, so a user can paste them back).  run.sh reads
# the network models of its runs with it (the report's `model` column);
# tests/mpi/test_settings_runtime.sh applies it to the line the library
# prints, so that the two cannot drift apart again (the fifty-ninth session
# changed the line's separators from spaces to commas, and the next sweep's
# report silently fell back to the fixed default model).
# Use: sed -n -f measured_model.sed LOG
s/.*INTERGATHER_[A-Z]*_MODEL=measure: measured between .*: ts=\([^,]*\),tw=\([^,]*\),to=\([^,]*\)$/\1,\2,\3/p
