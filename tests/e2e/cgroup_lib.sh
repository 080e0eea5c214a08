# Control groups for the end-to-end scripts that need a limit a scheduler would set (processes,
# memory, CPU quota). Root only, cgroup v1 or v2; a script skips that part, with a note, where none
# can be made. Every group made is removed at exit.
made_cgroups=()
trap 'for g in "${made_cgroups[@]}"; do rmdir "$g" 2>/dev/null; done; rm -rf "$work"' EXIT

# make_cgroup CONTROLLER: a new cgroup with CONTROLLER ("pids", "memory", "cpu") in $cgroup_dir,
# or fails. (Not printed: a command substitution's subshell would not record it for removal.)
make_cgroup() {
  local controller=$1 root dir
  [[ $(id -u) -eq 0 ]] || return 1
  for root in "/sys/fs/cgroup/$controller" /sys/fs/cgroup/cpu,cpuacct /sys/fs/cgroup; do
    [[ -f $root/cgroup.procs ]] || continue
    if [[ -f $root/cgroup.subtree_control ]]; then       # v2: the controller must be enabled below the root
      grep -qw "$controller" "$root/cgroup.subtree_control" || continue
    elif [[ $root == /sys/fs/cgroup/cpu,cpuacct && $controller != cpu ]]; then
      continue
    elif [[ $root == /sys/fs/cgroup ]]; then
      continue                                           # a v1 layout's tmpfs, no hierarchy
    fi
    dir=$root/featurelab-e2e-$$-$controller-${#made_cgroups[@]}
    mkdir "$dir" 2>/dev/null || continue
    made_cgroups+=("$dir")
    cgroup_dir=$dir
    return 0
  done
  return 1
}

# in_cgroup DIR COMMAND...: runs the command inside the cgroup.
in_cgroup() {
  local dir=$1
  shift
  bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$dir" "$@"
}
