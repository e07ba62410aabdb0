// The target that precompiles the headers the tests share (book_test_headers,
// tests/CMakeLists.txt). It holds no code: the header is its product.
