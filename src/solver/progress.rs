//! Running a call's work on the solver's pool while its progress callback runs on the calling
//! thread.
//!
//! Hosts such as Blender and Houdini may only touch their own API from the thread that called
//! the solver, so the host's callback must never run on a worker thread. The work runs on a
//! worker of the pool (so that its parallel loops use the pool's threads); each progress report
//! is sent over a channel to the calling thread, which runs the host's callback and sends the
//! answer (cancel or go on) back. The worker waits for that answer, so the callback still runs
//! between Newton iterations, never alongside them.

use super::ProgressFn;
use std::sync::mpsc;

/// Runs `work` on `pool` and returns its result. `work` receives a progress function when
/// `host` is given: each of its calls runs `host` on the calling thread with the same fraction
/// and returns `host`'s answer (`true` cancels). Without `host` this is `pool.install`.
///
/// A panic in `work` reaches the caller after the work has ended; a panic in `host` reaches the
/// caller after `work` has seen a cancel and ended.
pub(crate) fn on_pool<R, W>(pool: &rayon::ThreadPool, host: Option<&mut ProgressFn>, work: W) -> R
where
    R: Send,
    W: FnOnce(Option<&mut ProgressFn>) -> R + Send,
{
    let Some(host) = host else {
        return pool.install(|| work(None));
    };
    let (to_caller, reports) = mpsc::channel::<f64>();
    let (to_worker, answers) = mpsc::channel::<bool>();
    let mut result = None;
    let slot = &mut result;
    pool.in_place_scope(|scope| {
        scope.spawn(move |_| {
            // A closed channel means the caller's side has gone (its callback panicked): cancel.
            let mut forward: ProgressFn =
                Box::new(move |fraction| to_caller.send(fraction).is_err() || answers.recv().unwrap_or(true));
            *slot = Some(work(Some(&mut forward)));
            // Dropping `forward` closes the report channel, which ends the caller's loop below.
        });
        // Owned by this closure so that a panic in `host` drops it: the worker then reads a
        // closed channel as a cancel and ends, and the scope can finish.
        let to_worker = to_worker;
        while let Ok(fraction) = reports.recv() {
            if to_worker.send(host(fraction)).is_err() {
                break;
            }
        }
    });
    // `in_place_scope` returns only after the spawned work has run to its end (or re-raises its
    // panic), so the result is there.
    result.expect("the work spawned on the pool ran to its end")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn reports_reach_the_calling_thread_in_order_and_answers_reach_the_work() {
        let caller = std::thread::current().id();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let mut host: ProgressFn = Box::new(move |f| {
            log.lock().unwrap().push((std::thread::current().id(), f));
            f >= 0.5
        });
        let (answers, work_thread) = on_pool(&pool(2), Some(&mut host), |progress| {
            let progress = progress.expect("a progress function");
            let answers: Vec<bool> = [0.25, 0.5, 1.0].iter().map(|&f| progress(f)).collect();
            (answers, std::thread::current().id())
        });
        assert_eq!(answers, vec![false, true, true]);
        assert_ne!(work_thread, caller, "the work runs on a worker of the pool");
        let seen = seen.lock().unwrap();
        assert_eq!(seen.iter().map(|s| s.1).collect::<Vec<_>>(), vec![0.25, 0.5, 1.0]);
        assert!(seen.iter().all(|s| s.0 == caller), "every report ran on the calling thread");
    }

    #[test]
    fn without_a_host_the_work_gets_no_progress_function() {
        let got = on_pool(&pool(1), None, |progress| progress.is_none());
        assert!(got);
    }

    #[test]
    fn a_panicking_host_cancels_the_work_and_its_panic_reaches_the_caller() {
        let mut host: ProgressFn = Box::new(|_| panic!("host callback failed"));
        let finished = Arc::new(Mutex::new(None));
        let record = finished.clone();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            on_pool(&pool(2), Some(&mut host), |progress| {
                let progress = progress.unwrap();
                *record.lock().unwrap() = Some((progress(0.5), progress(1.0)));
            })
        }));
        assert!(outcome.is_err());
        assert_eq!(*finished.lock().unwrap(), Some((true, true)), "the work saw cancels and ended");
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let mut host: ProgressFn = Box::new(|_| false);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            on_pool(&pool(2), Some(&mut host), |progress| {
                progress.unwrap()(0.5);
                panic!("work failed")
            })
        }));
        assert!(outcome.is_err());
    }
}
