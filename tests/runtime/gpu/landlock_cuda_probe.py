"""GPU-machine diagnostic: which part of the worker's confinement stops CUDA from initialising.

Each variant runs in a fresh child process: it applies one Landlock configuration like
runtime/sandbox.cpp's (handled filesystem rights, TCP rules, signal/abstract-socket scoping), then
imports torch and initialises CUDA. Prints one line per variant. Usage: python3 landlock_cuda_probe.py
"""
import ctypes
import os
import subprocess
import sys
import tempfile

SYS_CREATE, SYS_ADD_RULE, SYS_RESTRICT = 444, 445, 446
PR_SET_NO_NEW_PRIVS = 38
# Filesystem rights (linux/landlock.h): EXECUTE 1, WRITE_FILE 2, REMOVE_DIR 16, REMOVE_FILE 32,
# MAKE_CHAR 64, MAKE_DIR 128, MAKE_REG 256, MAKE_SOCK 512, MAKE_FIFO 1024, MAKE_BLOCK 2048,
# MAKE_SYM 4096, REFER 8192, TRUNCATE 16384.
FS_ALL = 1 | 2 | 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096 | 8192 | 16384
NET_TCP = 1 | 2
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1, 2


class Attr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]


def confine(fs, net, scoped, private_dir, extra=()):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    assert libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
    attr = Attr(fs, net, scoped)
    ruleset = libc.syscall(SYS_CREATE, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    allow = [(private_dir, fs & ~1), ("/dev/null", 2)]
    allow += [(os.path.join("/dev", n), 2) for n in os.listdir("/dev") if n.startswith("nvidia")]
    allow += [(path, fs & ~1) for path in extra if os.path.exists(path)]
    for path, rights in allow if fs else []:
        if not rights & fs:
            continue
        fd = os.open(path, os.O_PATH)
        rule = PathBeneath(rights & fs, fd)
        if libc.syscall(SYS_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_add_rule " + path)
        os.close(fd)
    if libc.syscall(SYS_RESTRICT, ruleset, 0) != 0:
        raise OSError(ctypes.get_errno(), "landlock_restrict_self")


def child(fs, net, scoped, extra):
    private_dir = tempfile.mkdtemp()
    if fs or net or scoped:
        confine(fs, net, scoped, private_dir, [p for p in extra.split(",") if p])
    import torch
    torch.cuda.init()
    print("cuda ok, devices:", torch.cuda.device_count())


VARIANTS = {
    "none": (0, 0, 0),
    "fs only": (FS_ALL, 0, 0),
    "net only": (0, NET_TCP, 0),
    "scope abstract-unix only": (0, 0, SCOPE_ABSTRACT_UNIX),
    "scope signal only": (0, 0, SCOPE_SIGNAL),
    "all (as the worker)": (FS_ALL, NET_TCP, SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL),
}
# Which filesystem right CUDA needs: handle one right at a time.
NAMES = ["EXECUTE", "WRITE_FILE", "READ_FILE", "READ_DIR", "REMOVE_DIR", "REMOVE_FILE", "MAKE_CHAR", "MAKE_DIR",
         "MAKE_REG", "MAKE_SOCK", "MAKE_FIFO", "MAKE_BLOCK", "MAKE_SYM", "REFER", "TRUNCATE"]
for bit, name in enumerate(NAMES):
    if FS_ALL & (1 << bit):
        VARIANTS[f"fs handles {name} only"] = (1 << bit, 0, 0)
# Where: the worker's rights plus full rights beneath one more directory.
EXTRA = {"all + /dev/shm": "/dev/shm", "all + /tmp": "/tmp", "all + /dev": "/dev", "all + /proc": "/proc",
         "all + /proc/self/task": "/proc/self/task", "all + /sys": "/sys", "all + /run": "/run", "all + /var": "/var",
         "all + /root": "/root", "all + /etc": "/etc", "all + /usr": "/usr", "all + /opt": "/opt"}
if os.environ.get("PROBE_ONLY_EXTRA"):
    VARIANTS = {"all (as the worker)": VARIANTS["all (as the worker)"]}

if __name__ == "__main__":
    if len(sys.argv) == 5:
        child(*(int(a) for a in sys.argv[1:4]), sys.argv[4])
        sys.exit(0)
    runs = [(name, v, "") for name, v in VARIANTS.items()]
    runs += [(name, VARIANTS["all (as the worker)"], extra) for name, extra in EXTRA.items()]
    for name, (fs, net, scoped), extra in runs:
        r = subprocess.run([sys.executable, __file__, str(fs), str(net), str(scoped), extra], capture_output=True,
                           text=True, timeout=120)
        last = (r.stdout + r.stderr).strip().splitlines()
        print(f"{name:28s} rc={r.returncode} {last[-1] if last else ''}")
