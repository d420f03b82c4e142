/* stub */ typedef int sl_stub_5165;
