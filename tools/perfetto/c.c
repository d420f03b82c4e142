/* stub */ typedef int sl_stub_1634;
