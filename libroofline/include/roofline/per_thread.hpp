// per_thread<Tag, T>(): the calling thread's own T, made on its first use and destroyed when the thread ends.
//
// thread_local, but with mingw-w64 (roofline.dll), whose GCC emulates TLS: there a thread_local object with a
// destructor is destroyed at thread exit after its storage was freed (GCC PR 80816, mingw-w64 bug 527), which
// corrupts the heap once threads come and go (tests/c-api/test_threads.c under Wine found it). There a pthread key
// (winpthreads) owns the object instead. Tag tells apart two objects of one type.
#pragma once

#if defined(__MINGW32__)
#include <pthread.h>

#include <cstdlib>
#endif

namespace roofline {

template <typename Tag, typename T>
T& per_thread() {
#if defined(__MINGW32__)
    static const pthread_key_t key = [] {
        pthread_key_t k;
        if (pthread_key_create(&k, [](void* p) { delete static_cast<T*>(p); }) != 0) std::abort();
        return k;
    }();
    void* p = pthread_getspecific(key);
    if (!p) {
        p = new T();
        pthread_setspecific(key, p);
    }
    return *static_cast<T*>(p);
#else
    thread_local T value;
    return value;
#endif
}

}  // namespace roofline
