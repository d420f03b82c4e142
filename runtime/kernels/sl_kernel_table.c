/* stub */ typedef int sl_stub_3939;
