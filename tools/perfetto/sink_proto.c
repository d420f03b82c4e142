/* stub */ typedef int sl_stub_7213;
