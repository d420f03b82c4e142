--[[
** dtypes.lua — tensor element types, stored as a u8 in sl_tensor_desc.dtype.
**
** Data only. Shape:
**   dtypes = list of {
**     name        upper-case name (C: SL_DTYPE_<NAME>)
**     raw         the u8 value on the device
**     size        bytes per element (FP4E2M1 packs two per byte: size 1)
**     is_integer  true when --set-arg may take an integer literal
**     replayable  whether the L0 replay supports it (the reference tool does not for 11..14)
**   }
--]]
return {
  dtypes = {
    { name = "FLOAT32",   raw = 0,  size = 4, is_integer = false, replayable = true },
    { name = "FLOAT16",   raw = 1,  size = 2, is_integer = false, replayable = true },
    { name = "INT32",     raw = 2,  size = 4, is_integer = true,  replayable = true },
    { name = "INT16",     raw = 3,  size = 2, is_integer = true,  replayable = true },
    { name = "INT8",      raw = 4,  size = 1, is_integer = true,  replayable = true },
    { name = "UINT8",     raw = 5,  size = 1, is_integer = true,  replayable = true },
    { name = "BFLOAT16",  raw = 6,  size = 2, is_integer = false, replayable = true },
    { name = "INT64",     raw = 7,  size = 8, is_integer = true,  replayable = true },
    { name = "UINT64",    raw = 8,  size = 8, is_integer = true,  replayable = true },
    { name = "UINT16",    raw = 9,  size = 2, is_integer = true,  replayable = true },
    { name = "UINT32",    raw = 10, size = 4, is_integer = true,  replayable = true },
    { name = "BOOL",      raw = 11, size = 1, is_integer = false, replayable = false },
    { name = "FP8E4M3FN", raw = 12, size = 1, is_integer = false, replayable = false },
    { name = "FP8E8M0",   raw = 13, size = 1, is_integer = false, replayable = false },
    { name = "FP4E2M1",   raw = 14, size = 1, is_integer = false, replayable = false },
  },
}
