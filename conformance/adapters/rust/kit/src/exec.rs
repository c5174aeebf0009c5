//! JavaScript's event loop for one request, on the thread that runs it, and the pieces of
//! JavaScript's standard library a port's async code needs: AbortSignal, Promise.all, and
//! the race of a promise with a signal.
//!
//! Microtasks (the settlements of session-query calls, and the polls of the request's future
//! they wake) all run before the next macrotask, as promise reactions run before a timer.
//! Idle tasks (the cancel modes' backstops) run only when nothing else is left to run: the
//! loop is one thread's, so that is when no call could ever settle otherwise, and a backstop
//! there needs no timer.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

type Task = Box<dyn FnOnce()>;

#[derive(Default)]
struct Queues {
    micro: VecDeque<Task>,
    macro_: VecDeque<Task>,
    idle: VecDeque<Task>,
}

/// The event loop of one request.
#[derive(Clone, Default)]
pub struct Loop(Rc<RefCell<Queues>>);

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Loop {
    /// A new loop.
    pub fn new() -> Self {
        Self::default()
    }
    /// Queues a microtask.
    pub fn micro(&self, t: impl FnOnce() + 'static) {
        self.0.borrow_mut().micro.push_back(Box::new(t));
    }
    /// Queues a macrotask.
    pub fn macro_task(&self, t: impl FnOnce() + 'static) {
        self.0.borrow_mut().macro_.push_back(Box::new(t));
    }
    /// Queues a task to run once nothing else is left to run (no microtask, no macrotask, the
    /// request's future not woken): a backstop for a wait that would otherwise never end.
    pub fn idle(&self, t: impl FnOnce() + 'static) {
        self.0.borrow_mut().idle.push_back(Box::new(t));
    }
    /// Runs fut to its end: None when it can never settle (nothing left to run and it is
    /// still pending), where JavaScript would wait for ever.
    pub fn run<F: Future>(&self, fut: F) -> Option<F::Output> {
        let flag = Arc::new(Flag(AtomicBool::new(true)));
        let waker = Waker::from(flag.clone());
        let mut cx = Context::from_waker(&waker);
        let mut fut = Box::pin(fut);
        loop {
            if flag.0.swap(false, Ordering::SeqCst) {
                if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
                    return Some(v);
                }
                continue;
            }
            let micro = self.0.borrow_mut().micro.pop_front();
            if let Some(t) = micro {
                t();
                continue;
            }
            let mac = self.0.borrow_mut().macro_.pop_front();
            if let Some(t) = mac {
                t();
                continue;
            }
            let idle = self.0.borrow_mut().idle.pop_front();
            match idle {
                Some(t) => t(),
                None => return None,
            }
        }
    }
}

/// The settlement of a call: a future that is ready once the loop settles it (never, for a
/// held call).
pub struct Settle<T> {
    slot: Rc<RefCell<(Option<T>, Option<Waker>)>>,
}

/// The sender half of a Settle.
pub struct Settler<T> {
    slot: Rc<RefCell<(Option<T>, Option<Waker>)>>,
}

impl<T> Settle<T> {
    /// A settlement and the means to settle it.
    pub fn new() -> (Settle<T>, Settler<T>) {
        let slot = Rc::new(RefCell::new((None, None)));
        (Settle { slot: slot.clone() }, Settler { slot })
    }
}

impl<T> Settler<T> {
    /// Settles with v and wakes whoever waits.
    pub fn settle(self, v: T) {
        let w = {
            let mut s = self.slot.borrow_mut();
            s.0 = Some(v);
            s.1.take()
        };
        if let Some(w) = w {
            w.wake();
        }
    }
}

impl<T> Future for Settle<T> {
    type Output = T;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let mut s = self.slot.borrow_mut();
        match s.0.take() {
            Some(v) => Poll::Ready(v),
            None => {
                s.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

#[derive(Default)]
struct SignalState {
    aborted: bool,
    wakers: Vec<Waker>,
}

/// An AbortSignal: aborted once; whoever waits on it is woken at the abort.
#[derive(Clone, Default)]
pub struct Signal(Rc<RefCell<SignalState>>);

impl Signal {
    /// A live signal.
    pub fn new() -> Self {
        Self::default()
    }
    /// Whether it is aborted.
    pub fn aborted(&self) -> bool {
        self.0.borrow().aborted
    }
    /// Aborts it (the kit's cancel modes do).
    pub fn abort(&self) {
        let wakers = {
            let mut s = self.0.borrow_mut();
            if s.aborted {
                return;
            }
            s.aborted = true;
            std::mem::take(&mut s.wakers)
        };
        for w in wakers {
            w.wake();
        }
    }
    fn watch(&self, w: &Waker) {
        self.0.borrow_mut().wakers.push(w.clone());
    }
}

/// The abort won a race.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aborted;

/// settleWithCancellation(work, signal): work's output, or Aborted at the abort (at once when
/// the signal is already aborted). Without a signal, work's output.
pub async fn race<F: Future>(work: F, signal: Option<&Signal>) -> Result<F::Output, Aborted> {
    struct Race<'a, F> {
        work: Pin<Box<F>>,
        signal: Option<&'a Signal>,
        first: bool,
    }
    impl<F: Future> Future for Race<'_, F> {
        type Output = Result<F::Output, Aborted>;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            let first = std::mem::replace(&mut self.first, false);
            if let Some(s) = self.signal {
                if first && s.aborted() {
                    return Poll::Ready(Err(Aborted));
                }
            }
            if let Poll::Ready(v) = self.work.as_mut().poll(cx) {
                return Poll::Ready(Ok(v));
            }
            match self.signal {
                Some(s) if s.aborted() => Poll::Ready(Err(Aborted)),
                Some(s) => {
                    s.watch(cx.waker());
                    Poll::Pending
                }
                None => Poll::Pending,
            }
        }
    }
    Race { work: Box::pin(work), signal, first: true }.await
}

/// Promise.all over futures of results: every value in order, or the first error as soon as
/// it settles.
pub async fn all<T, E, F: Future<Output = Result<T, E>>>(futs: Vec<F>) -> Result<Vec<T>, E> {
    struct All<T, F> {
        futs: Vec<Option<Pin<Box<F>>>>,
        out: Vec<Option<T>>,
    }
    // The futures are boxed and the values are never pinned: All may move.
    impl<T, F> Unpin for All<T, F> {}
    impl<T, E, F: Future<Output = Result<T, E>>> Future for All<T, F> {
        type Output = Result<Vec<T>, E>;
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            let this = self.get_mut();
            for i in 0..this.futs.len() {
                if let Some(f) = this.futs[i].as_mut() {
                    if let Poll::Ready(r) = f.as_mut().poll(cx) {
                        this.futs[i] = None;
                        match r {
                            Ok(v) => this.out[i] = Some(v),
                            Err(e) => return Poll::Ready(Err(e)),
                        }
                    }
                }
            }
            if this.futs.iter().all(|f| f.is_none()) {
                Poll::Ready(Ok(this.out.iter_mut().map(|v| v.take().expect("settled")).collect()))
            } else {
                Poll::Pending
            }
        }
    }
    let n = futs.len();
    All { futs: futs.into_iter().map(|f| Some(Box::pin(f))).collect(), out: (0..n).map(|_| None).collect() }.await
}
