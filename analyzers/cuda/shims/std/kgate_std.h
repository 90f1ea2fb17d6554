// KernelGate shim: a small C++ standard library (declarations for name resolution only).
// Parsing the real libstdc++ through a PCH costs ~300 ms per source (its extern templates are
// deserialized eagerly); these declarations cost well under a millisecond.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <float.h>
#include <limits.h>
#include <assert.h>
// As libstdc++'s <cmath> does: C's classification macros give way to functions, so that a tensor's
// x.isfinite() and std::isfinite(v) are calls, not macro expansions.
#undef fpclassify
#undef isfinite
#undef isinf
#undef isnan
#undef isnormal
#undef signbit

namespace std {
using ::size_t;
using ptrdiff_t = decltype((int*)0 - (int*)0);
using nullptr_t = decltype(nullptr);
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t; using ::uintptr_t; using ::intptr_t;
using ::memcpy; using ::memset; using ::memcmp; using ::strlen; using ::strcmp; using ::strcpy;
using ::printf; using ::fprintf; using ::snprintf; using ::sprintf; using ::puts; using ::FILE; using ::fopen; using ::fclose;
using ::fread; using ::fwrite;
using ::malloc; using ::free; using ::calloc; using ::realloc; using ::exit; using ::abort; using ::getenv; using ::atoi; using ::atof;
using ::sqrt; using ::sqrtf; using ::exp; using ::expf; using ::log; using ::logf; using ::pow; using ::powf; using ::fabs; using ::fabsf;
using ::tanh; using ::tanhf; using ::sin; using ::sinf; using ::cos; using ::cosf; using ::erf; using ::erff; using ::ceil; using ::floor;
using ::ceilf; using ::floorf; using ::fmax; using ::fmaxf; using ::fmin; using ::fminf; using ::round; using ::roundf; using ::log2;
using ::log1p; using ::expm1; using ::exp2; using ::fma; using ::fmaf; using ::cbrt; using ::atan; using ::atan2; using ::acos; using ::asin;
using ::tan; using ::sinh; using ::cosh; using ::trunc; using ::fmod; using ::frexp; using ::ldexp; using ::erfc; using ::lround;
inline float exp(float x) { return ::expf(x); }
inline float log(float x) { return ::logf(x); }
inline float sqrt(float x) { return ::sqrtf(x); }
inline float pow(float a, float b) { return ::powf(a, b); }
inline float tanh(float x) { return ::tanhf(x); }
inline float fabs(float x) { return ::fabsf(x); }
inline float abs(float x) { return ::fabsf(x); }
inline double abs(double x) { return ::fabs(x); }
inline int abs(int x) { return x < 0 ? -x : x; }
inline long abs(long x) { return x < 0 ? -x : x; }
inline long long abs(long long x) { return x < 0 ? -x : x; }
template <class T> bool isnan(T x) { return x != x; }
template <class T> bool isinf(T x);
template <class T> bool isfinite(T x);
template <class T> T erf(T x);

// <type_traits>
template <class T, T v> struct integral_constant { static constexpr T value = v; using value_type = T; using type = integral_constant; constexpr operator T() const { return v; } };
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <bool B> using bool_constant = integral_constant<bool, B>;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> constexpr bool is_same_v = is_same<A, B>::value;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T&> { using type = T; };
template <class T> struct remove_reference<T&&> { using type = T; };
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> struct remove_cv { using type = T; };
template <class T> struct remove_cv<const T> { using type = T; };
template <class T> struct remove_cv<volatile T> { using type = T; };
template <class T> struct remove_cv<const volatile T> { using type = T; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> struct remove_const { using type = T; };
template <class T> struct remove_const<const T> { using type = T; };
template <class T> using remove_const_t = typename remove_const<T>::type;
template <class T> struct remove_pointer { using type = T; };
template <class T> struct remove_pointer<T*> { using type = T; };
template <class T> using remove_pointer_t = typename remove_pointer<T>::type;
template <class T> struct decay { using type = remove_cv_t<remove_reference_t<T>>; };
template <class T> using decay_t = typename decay<T>::type;
template <class T> struct remove_cvref { using type = remove_cv_t<remove_reference_t<T>>; };
template <class T> using remove_cvref_t = typename remove_cvref<T>::type;
template <class T> struct is_floating_point : bool_constant<__is_floating_point(T)> {};
template <class T> constexpr bool is_floating_point_v = __is_floating_point(T);
template <class T> struct is_integral : bool_constant<__is_integral(T)> {};
template <class T> constexpr bool is_integral_v = __is_integral(T);
template <class T> struct is_arithmetic : bool_constant<__is_arithmetic(T)> {};
template <class T> constexpr bool is_arithmetic_v = __is_arithmetic(T);
template <class T> struct is_pointer : bool_constant<__is_pointer(T)> {};
template <class T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(T)> {};
template <class T> struct is_signed : bool_constant<__is_signed(T)> {};
template <class T> struct is_unsigned : bool_constant<__is_unsigned(T)> {};
template <class T> struct is_const : false_type {};
template <class T> struct is_const<const T> : true_type {};
template <class T> struct is_void : is_same<remove_cv_t<T>, void> {};
template <class B, class D> struct is_base_of : bool_constant<__is_base_of(B, D)> {};
template <class F, class T> struct is_convertible : bool_constant<__is_convertible(F, T)> {};
template <class T> struct make_unsigned { using type = unsigned long; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;
template <class... T> struct common_type;
template <class T> struct common_type<T> { using type = T; };
template <class T, class U> struct common_type<T, U> { using type = decltype(true ? static_cast<T (*)()>(nullptr)() : static_cast<U (*)()>(nullptr)()); };
template <class... T> using common_type_t = typename common_type<T...>::type;
template <class T> T&& declval() noexcept;
template <class F, class... A> struct invoke_result { using type = decltype(declval<F>()(declval<A>()...)); };
template <class F, class... A> using invoke_result_t = typename invoke_result<F, A...>::type;
template <class F> struct result_of;
template <class... T> using void_t = void;
template <class T> struct alignment_of : integral_constant<size_t, alignof(T)> {};
template <size_t Len, size_t Align = 16> struct aligned_storage { struct type { alignas(Align) unsigned char data[Len]; }; };

// <utility>
template <class T> constexpr remove_reference_t<T>&& move(T&& t) noexcept { return static_cast<remove_reference_t<T>&&>(t); }
template <class T> constexpr T&& forward(remove_reference_t<T>& t) noexcept { return static_cast<T&&>(t); }
template <class T> constexpr T&& forward(remove_reference_t<T>&& t) noexcept { return static_cast<T&&>(t); }
template <class T> void swap(T& a, T& b);
template <class T, class U = T> T exchange(T& obj, U&& v);
template <class A, class B> struct pair {
  A first; B second;
  pair() = default;
  template <class X, class Y> pair(X&& a, Y&& b) : first(forward<X>(a)), second(forward<Y>(b)) {}
  bool operator==(const pair&) const;
  bool operator<(const pair&) const;
};
template <class A, class B> pair<decay_t<A>, decay_t<B>> make_pair(A&& a, B&& b);
template <class... T> struct tuple { tuple() = default; template <class... U> tuple(U&&...); };
template <class... T> tuple<decay_t<T>...> make_tuple(T&&... t);
template <class... T> tuple<T&...> tie(T&... t);
template <class... T> tuple<T&&...> forward_as_tuple(T&&... t);
template <size_t I, class T> auto& get(T& t);
template <class U, class T> U& get(T& t);
template <class T> struct tuple_size;
template <size_t I, class T> struct tuple_element;
struct in_place_t {}; constexpr in_place_t in_place{};
template <class T, T... I> struct integer_sequence {};
template <size_t... I> using index_sequence = integer_sequence<size_t, I...>;
template <size_t N> using make_index_sequence = index_sequence<>;

// <initializer_list>
template <class E> class initializer_list {
  const E* array_; size_t len_;
  constexpr initializer_list(const E* a, size_t l) : array_(a), len_(l) {}
 public:
  constexpr initializer_list() noexcept : array_(nullptr), len_(0) {}
  constexpr size_t size() const noexcept { return len_; }
  constexpr const E* begin() const noexcept { return array_; }
  constexpr const E* end() const noexcept { return array_ + len_; }
};

// <algorithm> <numeric> <functional>
template <class T> constexpr const T& min(const T& a, const T& b) { return b < a ? b : a; }
template <class T> constexpr const T& max(const T& a, const T& b) { return a < b ? b : a; }
template <class T, class C> constexpr const T& min(const T& a, const T& b, C c);
template <class T, class C> constexpr const T& max(const T& a, const T& b, C c);
template <class T> constexpr T min(initializer_list<T> l);
template <class T> constexpr T max(initializer_list<T> l);
template <class T> constexpr const T& clamp(const T& v, const T& lo, const T& hi);
template <class It, class... A> void sort(It first, It last, A&&...);
template <class It, class... A> void stable_sort(It first, It last, A&&...);
template <class It, class T> void fill(It first, It last, const T& v);
template <class It, class N, class T> It fill_n(It first, N n, const T& v);
template <class It, class O> O copy(It first, It last, O out);
template <class It, class N, class O> O copy_n(It first, N n, O out);
template <class It, class T> void iota(It first, It last, T v);
template <class It, class T, class... A> T accumulate(It first, It last, T init, A&&...);
template <class It, class... A> auto transform(It first, It last, A&&...);
template <class It, class... A> It max_element(It first, It last, A&&...);
template <class It, class... A> It min_element(It first, It last, A&&...);
template <class It, class T> It find(It first, It last, const T& v);
template <class It, class P> It find_if(It first, It last, P p);
template <class It, class P> bool all_of(It first, It last, P p);
template <class It, class P> bool any_of(It first, It last, P p);
template <class It, class P> bool none_of(It first, It last, P p);
template <class It, class T> size_t count(It first, It last, const T& v);
template <class It> void reverse(It first, It last);
template <class It, class F> F for_each(It first, It last, F f);
template <class It, class T, class... A> T inner_product(It a, It b, It c, T init, A&&...);
template <class It, class... A> bool equal(It a, It b, A&&...);
template <class T> struct plus { T operator()(const T& a, const T& b) const; };
template <class T> struct multiplies { T operator()(const T& a, const T& b) const; };
template <class T> struct less { bool operator()(const T& a, const T& b) const; };
template <class T> struct greater { bool operator()(const T& a, const T& b) const; };
template <class T> struct hash { size_t operator()(const T& v) const; };
template <class T> struct equal_to { bool operator()(const T& a, const T& b) const; };
template <class T> struct reference_wrapper { T& get() const; operator T&() const; };
template <class T> reference_wrapper<T> ref(T& t);
template <class T> reference_wrapper<const T> cref(const T& t);
template <class Sig> class function;
template <class R, class... A> class function<R(A...)> {
 public:
  function() = default;
  function(nullptr_t);
  template <class F> function(F f);
  R operator()(A... a) const;
  explicit operator bool() const;
};
template <class F, class... A> auto bind(F&& f, A&&... a);
template <class F, class... A> auto invoke(F&& f, A&&... a) -> decltype(f(a...));

// <limits>
template <class T> struct numeric_limits {
  static constexpr bool is_specialized = true;
  static constexpr T min() noexcept { return T(); }
  static constexpr T max() noexcept { return T(); }
  static constexpr T lowest() noexcept { return T(); }
  static constexpr T epsilon() noexcept { return T(); }
  static constexpr T infinity() noexcept { return T(); }
  static constexpr T quiet_NaN() noexcept { return T(); }
  static constexpr int digits = 0;
};

// <string> <sstream> <iostream> <stdexcept>
template <class C> struct char_traits {};
template <class T> struct allocator { using value_type = T; };
class string {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);
  string();
  string(const char* s);
  string(const char* s, size_t n);
  string(size_t n, char c);
  string(const string&);
  template <class It> string(It a, It b);
  string& operator=(const string&);
  string& operator=(const char*);
  const char* c_str() const;
  const char* data() const;
  char* data();
  size_t size() const;
  size_t length() const;
  bool empty() const;
  char& operator[](size_t i);
  const char& operator[](size_t i) const;
  string& operator+=(const string&);
  string& operator+=(const char*);
  string& operator+=(char);
  string substr(size_t pos, size_t n = npos) const;
  size_t find(const string& s, size_t pos = 0) const;
  size_t find(const char* s, size_t pos = 0) const;
  size_t find(char c, size_t pos = 0) const;
  size_t rfind(const string& s, size_t pos = npos) const;
  void push_back(char c);
  void reserve(size_t n);
  void resize(size_t n);
  void clear();
  string& append(const string& s);
  int compare(const string& s) const;
  char* begin();
  char* end();
  const char* begin() const;
  const char* end() const;
};
using basic_string_char = string;
string operator+(const string&, const string&);
string operator+(const string&, const char*);
string operator+(const char*, const string&);
string operator+(const string&, char);
bool operator==(const string&, const string&);
bool operator==(const string&, const char*);
bool operator!=(const string&, const string&);
bool operator!=(const string&, const char*);
bool operator<(const string&, const string&);
string to_string(int); string to_string(long); string to_string(long long); string to_string(unsigned);
string to_string(unsigned long); string to_string(unsigned long long); string to_string(float); string to_string(double);
int stoi(const string&, size_t* = nullptr, int = 10);
long stol(const string&, size_t* = nullptr, int = 10);
float stof(const string&, size_t* = nullptr);
double stod(const string&, size_t* = nullptr);
class string_view {
 public:
  string_view(); string_view(const char*); string_view(const string&); string_view(const char*, size_t);
  size_t size() const; const char* data() const; bool empty() const;
};
class exception { public: exception() noexcept; virtual ~exception(); virtual const char* what() const noexcept; };
class runtime_error : public exception { public: explicit runtime_error(const string&); explicit runtime_error(const char*); };
class logic_error : public exception { public: explicit logic_error(const string&); explicit logic_error(const char*); };
class invalid_argument : public logic_error { public: using logic_error::logic_error; };
class out_of_range : public logic_error { public: using logic_error::logic_error; };
class length_error : public logic_error { public: using logic_error::logic_error; };
class bad_alloc : public exception {};
class ostream {
 public:
  template <class T> ostream& operator<<(const T&);
  ostream& operator<<(ostream& (*)(ostream&));
  ostream& flush();
  ostream& write(const char*, long);
};
class istream { public: template <class T> istream& operator>>(T&); };
class ios_base { public: enum fmtflags { fixed = 4, scientific = 8 }; enum openmode { in = 1, out = 2, binary = 4, app = 8, trunc = 16 }; };
ostream& endl(ostream&);
ostream& flush(ostream&);
extern ostream cout, cerr, clog;
extern istream cin;
struct _Setprecision { int n; };
_Setprecision setprecision(int n);
struct _Setw { int n; };
_Setw setw(int n);
ostream& fixed(ostream&);
ostream& scientific(ostream&);
class ostringstream : public ostream { public: ostringstream(); string str() const; void str(const string&); };
class stringstream : public ostream { public: stringstream(); explicit stringstream(const string&); string str() const; template <class T> stringstream& operator>>(T&); };
class istringstream : public istream { public: explicit istringstream(const string&); };
class ofstream : public ostream { public: ofstream(); explicit ofstream(const string&, int = 0); explicit ofstream(const char*, int = 0); void open(const char*, int = 0); void close(); bool is_open() const; };
class ifstream : public istream { public: ifstream(); explicit ifstream(const string&, int = 0); explicit ifstream(const char*, int = 0); void close(); bool is_open() const; istream& read(char*, long); };
class fstream : public ostream { public: fstream(); explicit fstream(const char*, int = 0); void close(); };
istream& getline(istream&, string&);

// <vector> <array> <map> <unordered_map> <set> <deque> <list>
template <class T, class A = allocator<T>> class vector {
 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  vector();
  explicit vector(size_t n);
  vector(size_t n, const T& v);
  vector(initializer_list<T> l);
  template <class It> vector(It a, It b);
  vector(const vector&);
  vector(vector&&) noexcept;
  vector& operator=(const vector&);
  vector& operator=(vector&&) noexcept;
  ~vector();
  size_t size() const;
  bool empty() const;
  T* data();
  const T* data() const;
  T& operator[](size_t i);
  const T& operator[](size_t i) const;
  T& at(size_t i);
  const T& at(size_t i) const;
  T& front(); T& back(); const T& front() const; const T& back() const;
  T* begin(); T* end(); const T* begin() const; const T* end() const;
  void push_back(const T& v);
  void push_back(T&& v);
  template <class... Args> T& emplace_back(Args&&... args);
  void pop_back();
  void resize(size_t n);
  void resize(size_t n, const T& v);
  void reserve(size_t n);
  size_t capacity() const;
  void clear();
  template <class... Args> T* insert(const T* pos, Args&&... args);
  T* erase(const T* pos);
  void assign(size_t n, const T& v);
};
template <class T, size_t N> struct array {
  T elems_[N ? N : 1];
  constexpr T& operator[](size_t i) { return elems_[i]; }
  constexpr const T& operator[](size_t i) const { return elems_[i]; }
  constexpr size_t size() const { return N; }
  T* data(); const T* data() const;
  T* begin(); T* end(); const T* begin() const; const T* end() const;
  void fill(const T& v);
};
template <class K, class V, class C = less<K>> class map {
 public:
  using iterator = pair<const K, V>*;
  map(); map(initializer_list<pair<const K, V>>);
  V& operator[](const K& k);
  V& at(const K& k);
  iterator find(const K& k); iterator begin(); iterator end();
  size_t count(const K& k) const; size_t size() const; bool empty() const; void clear();
  template <class... A> pair<iterator, bool> emplace(A&&... a);
  template <class... A> pair<iterator, bool> insert(A&&... a);
  size_t erase(const K& k);
  bool contains(const K& k) const;
};
template <class K, class V, class H = hash<K>, class E = equal_to<K>> class unordered_map : public map<K, V> {
 public:
  using map<K, V>::map;
  void reserve(size_t n);
};
template <class K, class C = less<K>> class set {
 public:
  set(); set(initializer_list<K>);
  const K* find(const K& k) const; const K* begin() const; const K* end() const;
  size_t count(const K& k) const; size_t size() const; bool empty() const;
  template <class... A> pair<const K*, bool> insert(A&&... a);
  template <class... A> pair<const K*, bool> emplace(A&&... a);
  size_t erase(const K& k);
};
template <class K, class H = hash<K>, class E = equal_to<K>> class unordered_set : public set<K> { public: using set<K>::set; };
template <class T> class deque : public vector<T> { public: using vector<T>::vector; void push_front(const T&); void pop_front(); };
template <class T> class list : public vector<T> { public: using vector<T>::vector; void push_front(const T&); };

// <optional>
struct nullopt_t { explicit constexpr nullopt_t(int) {} };
inline constexpr nullopt_t nullopt{0};
template <class T> class optional {
 public:
  constexpr optional() noexcept {}
  constexpr optional(nullopt_t) noexcept {}
  template <class U = T> optional(U&& v);
  optional(const optional&);
  optional& operator=(const optional&);
  template <class U = T> optional& operator=(U&& v);
  bool has_value() const; explicit operator bool() const;
  T& value(); const T& value() const;
  T& operator*(); const T& operator*() const;
  T* operator->(); const T* operator->() const;
  template <class U> T value_or(U&& u) const;
  void reset();
  template <class... A> T& emplace(A&&... a);
};
template <class T> optional<decay_t<T>> make_optional(T&& v);

// <memory>
template <class T> struct default_delete { void operator()(T* p) const; };
template <class T, class D = default_delete<T>> class unique_ptr {
 public:
  unique_ptr(); explicit unique_ptr(T* p); unique_ptr(nullptr_t); unique_ptr(unique_ptr&&); template <class U, class E> unique_ptr(unique_ptr<U, E>&&);
  unique_ptr& operator=(unique_ptr&&); unique_ptr& operator=(nullptr_t);
  ~unique_ptr();
  T* get() const; T* release(); void reset(T* p = nullptr);
  T& operator*() const; T* operator->() const; explicit operator bool() const;
};
template <class T, class D> class unique_ptr<T[], D> {
 public:
  unique_ptr(); explicit unique_ptr(T* p); unique_ptr(unique_ptr&&);
  T* get() const; T& operator[](size_t i) const; void reset(T* p = nullptr); explicit operator bool() const;
};
template <class T> class shared_ptr {
 public:
  shared_ptr(); explicit shared_ptr(T* p); shared_ptr(nullptr_t); template <class U> shared_ptr(const shared_ptr<U>&);
  template <class U, class D> shared_ptr(U* p, D d);
  shared_ptr(const shared_ptr&); shared_ptr& operator=(const shared_ptr&);
  T* get() const; T& operator*() const; T* operator->() const; explicit operator bool() const; void reset(); long use_count() const;
};
template <class T> class weak_ptr { public: weak_ptr(); weak_ptr(const shared_ptr<T>&); shared_ptr<T> lock() const; };
template <class T, class... A> unique_ptr<T> make_unique(A&&... a);
template <class T, class... A> shared_ptr<T> make_shared(A&&... a);
template <class T> T* addressof(T& r) noexcept;
template <class T> struct enable_shared_from_this { shared_ptr<T> shared_from_this(); };

// <thread> <mutex> <future> <atomic> <condition_variable>
class thread {
 public:
  class id { public: bool operator==(const id&) const; };
  thread() noexcept;
  template <class F, class... A> explicit thread(F&& f, A&&... a);
  thread(thread&&) noexcept;
  thread& operator=(thread&&) noexcept;
  ~thread();
  void join(); void detach(); bool joinable() const noexcept; id get_id() const noexcept;
  static unsigned hardware_concurrency() noexcept;
};
class jthread { public: template <class F, class... A> explicit jthread(F&& f, A&&... a); void join(); void detach(); };
namespace this_thread { template <class D> void sleep_for(const D& d); void yield() noexcept; thread::id get_id() noexcept; }
class mutex { public: mutex(); void lock(); void unlock(); bool try_lock(); };
class recursive_mutex { public: void lock(); void unlock(); };
class shared_mutex { public: void lock(); void unlock(); void lock_shared(); void unlock_shared(); };
template <class M> class lock_guard { public: explicit lock_guard(M& m); ~lock_guard(); };
template <class M> class unique_lock { public: unique_lock(); explicit unique_lock(M& m); ~unique_lock(); void lock(); void unlock(); };
template <class... M> class scoped_lock { public: explicit scoped_lock(M&... m); ~scoped_lock(); };
struct once_flag { once_flag() noexcept; };
template <class F, class... A> void call_once(once_flag& flag, F&& f, A&&... a);
class condition_variable { public: void notify_one(); void notify_all(); template <class L> void wait(L& lock); template <class L, class P> void wait(L& lock, P p); };
template <class T> class future { public: T get(); void wait() const; bool valid() const; template <class D> int wait_for(const D& d) const; };
template <class T> class shared_future { public: const T& get() const; void wait() const; };
template <class T> class promise { public: promise(); future<T> get_future(); void set_value(const T& v); };
template <> class promise<void> { public: promise(); future<void> get_future(); void set_value(); };
enum class launch { async = 1, deferred = 2 };
template <class F, class... A> auto async(F&& f, A&&... a) -> future<decltype(f(a...))>;
template <class F, class... A> auto async(launch policy, F&& f, A&&... a) -> future<decltype(f(a...))>;
template <class Sig> class packaged_task;
template <class R, class... A> class packaged_task<R(A...)> { public: template <class F> explicit packaged_task(F&& f); future<R> get_future(); void operator()(A... a); };
enum memory_order { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release, memory_order_acq_rel, memory_order_seq_cst };
template <class T> struct atomic {
  atomic() noexcept = default; constexpr atomic(T v) noexcept : v_(v) {}
  T load(memory_order = memory_order_seq_cst) const noexcept;
  void store(T v, memory_order = memory_order_seq_cst) noexcept;
  T exchange(T v, memory_order = memory_order_seq_cst) noexcept;
  bool compare_exchange_strong(T& e, T d, memory_order = memory_order_seq_cst) noexcept;
  T fetch_add(T v, memory_order = memory_order_seq_cst) noexcept;
  T fetch_sub(T v, memory_order = memory_order_seq_cst) noexcept;
  operator T() const noexcept;
  T operator=(T v) noexcept;
  T operator++() noexcept; T operator++(int) noexcept; T operator--() noexcept; T operator+=(T v) noexcept;
  T v_;
};
using atomic_int = atomic<int>;
using atomic_bool = atomic<bool>;
struct atomic_flag { bool test_and_set(memory_order = memory_order_seq_cst) noexcept; void clear(memory_order = memory_order_seq_cst) noexcept; };

// <chrono>
namespace chrono {
template <class Rep, class Period = void> class duration {
 public:
  duration() = default; template <class R> constexpr explicit duration(const R& r); Rep count() const;
  template <class R, class P> duration(const duration<R, P>&);
};
using nanoseconds = duration<long long, struct nano_tag>;
using microseconds = duration<long long, struct micro_tag>;
using milliseconds = duration<long long, struct milli_tag>;
using seconds = duration<long long, struct one_tag>;
template <class C, class D = nanoseconds> class time_point { public: D time_since_epoch() const; };
template <class C, class D> nanoseconds operator-(const time_point<C, D>&, const time_point<C, D>&);
struct steady_clock { using time_point = chrono::time_point<steady_clock>; static time_point now() noexcept; };
struct system_clock { using time_point = chrono::time_point<system_clock>; static time_point now() noexcept; };
using high_resolution_clock = steady_clock;
template <class To, class R, class P> To duration_cast(const duration<R, P>& d);
}  // namespace chrono

// <random>
class mt19937 { public: explicit mt19937(unsigned seed = 5489u); unsigned operator()(); };
class mt19937_64 { public: explicit mt19937_64(unsigned long long seed = 5489u); unsigned long long operator()(); };
class random_device { public: random_device(); unsigned operator()(); };
template <class T = double> class uniform_real_distribution { public: uniform_real_distribution(T a = 0, T b = 1); template <class G> T operator()(G& g); };
template <class T = int> class uniform_int_distribution { public: uniform_int_distribution(T a = 0, T b = 1); template <class G> T operator()(G& g); };
template <class T = double> class normal_distribution { public: normal_distribution(T m = 0, T s = 1); template <class G> T operator()(G& g); };

// <iterator> <complex>
template <class C> auto begin(C& c) -> decltype(c.begin());
template <class C> auto end(C& c) -> decltype(c.end());
template <class T, size_t N> T* begin(T (&a)[N]);
template <class T, size_t N> T* end(T (&a)[N]);
template <class C> constexpr auto size(const C& c) -> decltype(c.size());
template <class T, size_t N> constexpr size_t size(const T (&)[N]) noexcept { return N; }
template <class C> auto data(C& c) -> decltype(c.data());
template <class It> ptrdiff_t distance(It a, It b);
template <class It, class D> void advance(It& it, D n);
template <class C> class back_insert_iterator {};
template <class C> back_insert_iterator<C> back_inserter(C& c);
template <class T> struct complex { T re, im; complex(T r = T(), T i = T()); T real() const; T imag() const; };
}  // namespace std

// libstdc++'s <math.h> brings them into the global namespace, where C code and device code call them.
using std::isfinite;
using std::isinf;
using std::isnan;

inline void* operator new(size_t, void* p) noexcept { return p; }
