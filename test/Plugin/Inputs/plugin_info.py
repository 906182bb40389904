# Prints the DialectPluginLibraryInfo a dialect plugin returns
# (mlir/Tools/Plugins/DialectPlugin.h).
import ctypes
import sys


class Info(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32),
                ("name", ctypes.c_char_p),
                ("version", ctypes.c_char_p),
                ("register", ctypes.c_void_p)]


lib = ctypes.CDLL(sys.argv[1])
get = lib.mlirGetDialectPluginInfo
get.restype = Info
info = get()
print("name=%s version=%s" % (info.name.decode(), info.version.decode()))
