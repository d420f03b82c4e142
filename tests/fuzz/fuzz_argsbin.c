/*
** fuzz_argsbin.c — libFuzzer target: args.bin, the payload file of a level-2
** args dump, restored into every tensor of a task of a fixed manifest
** (SL_FUZZ_ARGS_MANIFEST, a test fixture whose offsets point into args.bin).
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "l0_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The manifest and the task rebuilt from it do not depend on the input: both are made
** once (restore only reads the manifest), and after each input the task's restored
** state (payload, init) is put back as reconstruct left it, so every input meets the
** same fresh task. */
static sl_l0_manifest m;
static sl_l0_task t;
static int slots[64], nslots, init0[64];

static void setup(void) {
  size_t len;
  char *text = sl_l0_read_file(SL_FUZZ_ARGS_MANIFEST, &len);
  if (!text) abort();
  fuzz_write("args_dump.json", (const uint8_t *)text, len);
  free(text);
  char path[256];
  snprintf(path, sizeof path, "%s/args_dump.json", fuzz_dir());
  const int want[] = {1};
  /* the fixture is valid */
  if (sl_l0_manifest_load(path, &m) != 0 || sl_l0_reconstruct(&m, want, 1, NULL, &t) != 0) abort();
  for (int i = 0; i < t.nargs && nslots < 64; i++)
    if (t.args[i].is_tensor) {
      init0[nslots] = t.args[i].init;
      slots[nslots++] = t.args[i].slot;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!m.root) setup();
  fuzz_write("args.bin", data, size);
  (void)sl_l0_restore_args(&m, &t, slots, nslots);
  for (int k = 0; k < nslots; k++) {
    sl_l0_arg *a = sl_l0_task_arg(&t, slots[k]);
    free(a->payload);
    a->payload = NULL;
    a->init = init0[k];
  }
  return 0;
}
